/** /batch (issue 20): opens the batch modal; `/batch template` answers with each kind's columns. */
import { BATCH_USAGE, batchModal, batchTemplateText } from '../blocks/batch-modal.js';
import { isHelp } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import type { Routes } from '../routes.js';

export function registerBatchCommand(app: Routes, deps: Deps): void {
  app.command('/batch', async ({ command, ack, client }) => {
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
    await client.views
      .open({ trigger_id: command.trigger_id, view: batchModal({ channel: command.channel_id }, deps.config.wallets) })
      .catch((err: unknown) => deps.log.error({ err }, 'could not open the batch modal'));
  });
}
