/** /batch: opens the batch modal; `/batch template` answers with each kind's columns. */
import { refreshBatchChoices } from '../batch-choices.js';
import { BATCH_USAGE, batchModal, batchTemplateText } from '../blocks/batch-modal.js';
import { isHelp } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import type { CommandHandler, Routes } from '../routes.js';

/** /batch: the columns on `template`, the usage on anything else typed, else the modal. */
export const batchCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, client }) => {
    const text = (command.text ?? '').trim().toLowerCase();
    if (text === 'template' || text === 'templates') {
      await ack({ response_type: 'ephemeral', text: batchTemplateText() });
      return;
    }
    if (isHelp(text) || text !== '') {
      await ack({ response_type: 'ephemeral', text: BATCH_USAGE });
      return;
    }
    await ack();
    const opened = await client.views
      .open({ trigger_id: command.trigger_id, view: batchModal({ channel: command.channel_id }, deps.config.wallets) })
      .catch((err: unknown) => void deps.log.error({ err }, 'could not open the batch modal'));
    // Then, as the transfer form: wallets that cannot pay marked, the first usable one's assets.
    const view = opened?.view;
    if (view?.id)
      await refreshBatchChoices(
        client,
        deps,
        { id: view.id, ...(view.hash ? { hash: view.hash } : {}) },
        command.channel_id,
        {},
      );
  };

export function registerBatchCommand(app: Routes, deps: Deps): void {
  app.command('/batch', batchCommand(deps));
}
