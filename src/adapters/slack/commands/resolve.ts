/**
 * /resolve: `/resolve R-n.k paid <proof>` and `/resolve R-n.k not-paid <why>` → deps.app.executions.resolve
 * (app/resolve.ts) → one private sentence; not-paid only proposes. `/resolve R-n` or `/resolve
 * R-n.k` alone opens the Record outcome form (slack/views/record-outcome.ts).
 */

import { resolveText } from '../../../app/resolve-text.js';
import { slackActor } from '../../../domain/actor.js';
import { APPROVAL_ID, EXECUTION_ID } from '../../../domain/approval.js';
import { parseResolution } from '../../../domain/resolution.js';
import { esc, withSandboxText } from '../blocks/common.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import type { Routes } from '../routes.js';
import { openRecordOutcome } from '../views/record-outcome.js';

export function registerResolveCommand(app: Routes, deps: Deps): void {
  app.command('/resolve', async ({ command, ack, client }) => {
    const text = command.text ?? '';
    if (isHelp(text) || !text.trim()) {
      await ack({ response_type: 'ephemeral', text: USAGE.resolve });
      return;
    }
    const words = text.trim().split(/\s+/);
    const only = words.length === 1 ? (words[0] ?? '').toUpperCase() : '';
    if (only && (APPROVAL_ID.test(only) || EXECUTION_ID.test(only))) {
      // A batch's rows are many: its row must be named; a single request's only execution is .1.
      if (!EXECUTION_ID.test(only) && (await deps.app.reads.request(only))?.shape === 'batch') {
        await ack({ response_type: 'ephemeral', text: `Name the row of ${only}, e.g. \`/resolve ${only}.3\`.` });
        return;
      }
      await ack();
      const id = EXECUTION_ID.test(only) ? only : `${only}.1`;
      await openRecordOutcome(deps, client, command.trigger_id, command.user_id, id, command.channel_id);
      return;
    }
    const parsed = parseResolution(words);
    if (!parsed.ok) {
      await ack({ response_type: 'ephemeral', text: esc(parsed.problem) });
      return;
    }
    await ack();
    let answer: string;
    try {
      const outcome = await deps.app.executions.resolve(slackActor(command.user_id), parsed.resolution);
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
