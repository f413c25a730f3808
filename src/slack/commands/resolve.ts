/** /resolve (issue 19): read the words → deps.app.resolve (app/resolve.ts) → one private sentence. */
import { resolveText } from '../../app/resolve-text.js';
import { parseResolution } from '../../domain/resolution.js';
import { esc, withSandboxText } from '../blocks/common.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import type { Routes } from '../routes.js';

export function registerResolveCommand(app: Routes, deps: Deps): void {
  app.command('/resolve', async ({ command, ack, client }) => {
    const text = command.text ?? '';
    if (isHelp(text) || !text.trim()) {
      await ack({ response_type: 'ephemeral', text: USAGE.resolve });
      return;
    }
    const parsed = parseResolution(text.split(/\s+/));
    if (!parsed.ok) {
      await ack({ response_type: 'ephemeral', text: esc(parsed.problem) });
      return;
    }
    await ack();
    let answer: string;
    try {
      const outcome = await deps.app.resolve(command.user_id, parsed.resolution);
      answer = resolveText(outcome, (u) => `<@${u}>`);
    } catch (err) {
      deps.log.error({ err }, '/resolve failed');
      answer =
        'Rampart could not finish recording that just now; try again in a minute (a resolution already recorded is never recorded twice).';
    }
    await client.chat
      .postEphemeral({
        channel: command.channel_id,
        user: command.user_id,
        text: withSandboxText(answer, deps.sandbox),
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'could not answer /resolve'));
  });
}
