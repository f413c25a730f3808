/** The small /lookup modal: bank code and account number, answered in the modal itself. */

import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { DeadlineError, withDeadline } from '../../../app/deadline.js';
import { describeError } from '../../../app/describe-error.js';
import { checkNigerianAccount } from '../../../domain/bank-account.js';
import { InputError } from '../../../errors.js';
import { lookupAnswer } from '../answers.js';
import { type Blocks, errorBlocks, plain } from '../blocks/common.js';
import type { Deps } from '../deps.js';
import type { Routes, ViewHandler } from '../routes.js';

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

/** Opens the form; false when Slack refused (expired trigger, rate limit), so the caller can say so. */
export async function openLookupModal(client: WebClient, triggerId: string, deps: Pick<Deps, 'log'>): Promise<boolean> {
  try {
    await client.views.open({ trigger_id: triggerId, view: lookupModal() });
    return true;
  } catch (err) {
    deps.log.error({ err }, 'could not open the lookup modal');
    return false;
  }
}

/** How long the submission may wait for the service before acking; Slack allows 3 s in all. */
const ANSWER_IN_ACK_MS = 1500;

type Outcome = { blocks: Blocks } | { err: unknown };

/** The outcome if it settles within `ms`, else undefined; the timer never outlives the race. */
async function withinBudget(outcome: Promise<Outcome>, ms: number): Promise<Outcome | undefined> {
  try {
    return await withDeadline(outcome, ms);
  } catch (err) {
    if (err instanceof DeadlineError) return undefined;
    throw err;
  }
}

function resultBlocks(outcome: Outcome, deps: Pick<Deps, 'log'>): Blocks {
  if ('blocks' in outcome) return outcome.blocks;
  if (!(outcome.err instanceof InputError)) deps.log.error({ err: outcome.err }, 'lookup failed');
  return errorBlocks(describeError(outcome.err));
}

export const lookupSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, client }) => {
    const values = view.state.values;
    const bankCode = values.bank_code?.bank_code?.value?.trim() ?? '';
    const accountNumber = values.account_number?.account_number?.value?.trim() ?? '';
    const errors: Record<string, string> = {};
    const account = checkNigerianAccount(bankCode, accountNumber);
    if ('errors' in account) Object.assign(errors, account.errors);
    if (Object.keys(errors).length > 0) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    // Most lookups answer well within Slack's 3 s: show the result (or a field error) in the ack
    // itself. Only a slow one gets "Looking up…" first and a views.update afterwards.
    const outcome = lookupAnswer(deps, `${bankCode} ${accountNumber}`).then(
      (blocks) => ({ blocks }),
      (err: unknown) => ({ err }),
    );
    const quick = await withinBudget(outcome, ANSWER_IN_ACK_MS);
    if (quick && 'err' in quick && quick.err instanceof InputError) {
      // The service knows no such account: say so on the field, where it can be corrected.
      await ack({ response_action: 'errors', errors: { account_number: describeError(quick.err) } });
      return;
    }
    if (quick) {
      await ack({ response_action: 'update', view: resultModal(resultBlocks(quick, deps)) });
      return;
    }
    await ack({
      response_action: 'update',
      view: resultModal([{ type: 'section', text: { type: 'mrkdwn', text: ':hourglass_flowing_sand: Looking up…' } }]),
    });
    const late = await outcome;
    try {
      await client.views.update({ view_id: view.id, view: resultModal(resultBlocks(late, deps)) });
    } catch (err) {
      deps.log.error({ err }, 'could not show the lookup result');
    }
  };

export function registerLookupView(app: Routes, deps: Deps): void {
  app.view(LOOKUP_CALLBACK, lookupSubmit(deps));
}
