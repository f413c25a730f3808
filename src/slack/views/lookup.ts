/** The small /lookup modal: bank code and account number, answered in the modal itself. */
import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { InputError } from '../../errors.js';
import { lookupAnswer } from '../answers.js';
import { type Blocks, errorBlocks, plain, withSandboxNote } from '../blocks/common.js';
import type { Deps } from '../deps.js';
import { describeError } from '../describe-error.js';

export const LOOKUP_CALLBACK = 'lookup_modal';

const textInput = (blockId: string, label: string, hint: string) => ({
  type: 'input' as const,
  block_id: blockId,
  label: plain(label),
  hint: plain(hint),
  element: { type: 'plain_text_input' as const, action_id: blockId },
});

export const lookupModal = (): View => ({
  type: 'modal',
  callback_id: LOOKUP_CALLBACK,
  title: plain('Bank account lookup', 24),
  submit: plain('Look up', 24),
  close: plain('Close', 24),
  blocks: [
    textInput('bank_code', 'Bank code', 'e.g. 058 for GTBank'),
    textInput('account_number', 'Account number', '10-digit NUBAN'),
  ],
});

const resultModal = (blocks: Blocks): View => ({
  type: 'modal',
  title: plain('Bank account lookup', 24),
  close: plain('Done', 24),
  blocks,
});

export async function openLookupModal(client: WebClient, triggerId: string, deps: Pick<Deps, 'log'>): Promise<void> {
  try {
    await client.views.open({ trigger_id: triggerId, view: lookupModal() });
  } catch (err) {
    deps.log.error({ err }, 'could not open the lookup modal');
  }
}

export function registerLookupView(app: App, deps: Deps): void {
  app.view(LOOKUP_CALLBACK, async ({ ack, view, client }) => {
    const values = view.state.values;
    const bankCode = values.bank_code?.bank_code?.value?.trim() ?? '';
    const accountNumber = values.account_number?.account_number?.value?.trim() ?? '';
    const errors: Record<string, string> = {};
    if (!/^\d{3,6}$/.test(bankCode)) errors.bank_code = 'A bank code is 3 to 6 digits, e.g. 058.';
    if (!/^\d{10}$/.test(accountNumber))
      errors.account_number = 'A Nigerian account number (NUBAN) has exactly 10 digits.';
    if (Object.keys(errors).length > 0) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    // The lookup may take longer than the 3 s Slack allows: answer "looking up" now, then update.
    await ack({
      response_action: 'update',
      view: resultModal([{ type: 'section', text: { type: 'mrkdwn', text: ':hourglass_flowing_sand: Looking up…' } }]),
    });
    let blocks: Blocks;
    try {
      blocks = await lookupAnswer(deps, `${bankCode} ${accountNumber}`);
    } catch (err) {
      if (!(err instanceof InputError)) deps.log.error({ err }, 'lookup failed');
      blocks = errorBlocks(describeError(err));
    }
    try {
      await client.views.update({ view_id: view.id, view: resultModal(withSandboxNote(blocks, deps.sandbox)) });
    } catch (err) {
      deps.log.error({ err }, 'could not show the lookup result');
    }
  });
}
