/** /transfer and /offramp: open the modal first (trigger_id lives 3 s), pre-filled from the text. */
import type { App } from '@slack/bolt';
import { parseRequestText } from '../../domain/command-text.js';
import { requestModal } from '../blocks/request-modal.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';

export function registerRequestCommands(app: App, deps: Deps): void {
  for (const kind of ['transfer', 'offramp'] as const) {
    app.command(`/${kind}`, async ({ command, ack, client }) => {
      if (isHelp(command.text ?? '')) {
        await ack({ response_type: 'ephemeral', text: USAGE[kind] });
        return;
      }
      await ack();
      const view = requestModal(
        { kind, channel: command.channel_id },
        deps.config.wallets,
        parseRequestText(command.text ?? ''),
      );
      try {
        await client.views.open({ trigger_id: command.trigger_id, view });
      } catch (err) {
        deps.log.error({ err }, `could not open the ${kind} modal`);
      }
    });
  }
}
