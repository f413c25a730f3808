/** "Share in channel": answers again, fresh, visibly in the channel, naming who shared it. */
import type { BlockButtonAction } from '@slack/bolt';
import { z } from 'zod';
import { ANSWERS } from '../answers.js';
import { context } from '../blocks/common.js';
import type { Deps } from '../deps.js';
import { respondError } from '../respond.js';
import type { ActionHandler, Routes } from '../routes.js';

const shareValue = z.object({ command: z.enum(['balance', 'rate']), args: z.string().max(200) });

// A button value is client-supplied text: malformed JSON is refused like any other bad value.
function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? 'null');
  } catch {
    return undefined;
  }
}

export const shareAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, action, body, respond }) => {
    await ack();
    const parsed = shareValue.safeParse(parseJson(action.value));
    if (!parsed.success) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: 'This button is from an older version of Rampart; run the command again.',
      });
      return;
    }
    try {
      const blocks = await ANSWERS[parsed.data.command](deps, parsed.data.args);
      await respond({
        response_type: 'in_channel',
        replace_original: false,
        text: `Shared by <@${body.user.id}>`,
        blocks: [
          ...blocks,
          context(
            `Shared by <@${body.user.id}> from \`/${parsed.data.command}${parsed.data.args ? ` ${parsed.data.args}` : ''}\``,
          ),
        ],
      });
    } catch (err) {
      await respondError(respond, deps, err);
    }
  };

export function registerShareAction(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>('share_in_channel', shareAction(deps));
}
