/**
 * Resume / Stop on a batch's card: read the click → deps.app.batch (app/batch-control.ts) → a private
 * answer. The button carries only the batch id.
 */

import type { BlockButtonAction } from '@slack/bolt';
import type { BatchControlOutcome } from '../../../app/batch-control.js';
import { redisFailureText } from '../../../app/describe-error.js';
import { slackActor } from '../../../domain/actor.js';
import { BATCH_ACTIONS } from '../blocks/batch-card.js';
import { refusalText } from '../decision-text.js';
import type { Deps } from '../deps.js';
import type { ActionHandler, Routes } from '../routes.js';
import { readClick, tell } from './approval.js';
import { registerRequestAgain } from './batch-again.js';
import { offerPasskey } from './step-up-offer.js';

const LATE: Record<string, string> = {
  running: 'it is already running',
  approved: 'it is already running',
  stopping: 'it is being stopped',
  done: 'it has finished',
  pending: 'it is not approved yet',
};

function answer(outcome: BatchControlOutcome, what: 'resume' | 'stop'): string | undefined {
  switch (outcome.kind) {
    case 'not-approver':
    case 'approver-check-failed':
      return refusalText(outcome);
    case 'self':
      return `You requested ${outcome.requestId}, so you cannot resume it; another approver must (you can Stop it).`;
    case 'not-allowed':
      return `Only the requester or an approver can stop ${outcome.requestId}.`;
    case 'late':
      return `${outcome.requestId} cannot be ${what === 'resume' ? 'resumed' : 'stopped'} now: ${LATE[outcome.state ?? ''] ?? `it is ${outcome.state ?? 'gone'}`}.`;
    case 'resumed':
      return `${outcome.requestId} resumed: its remaining rows run one at a time.`;
    case 'unfunded':
      return `Not resumed: ${outcome.shortfall}. ${outcome.requestId} stays paused; fund the wallet and Resume again, or Stop.`;
    case 'stopped':
      return `${outcome.requestId} stopped: ${outcome.cancelled} unsent row${outcome.cancelled === 1 ? '' : 's'} cancelled.`;
    case 'missing':
    case 'step-up': // the passkey page resumes it (offered by the listener)
      return undefined;
  }
}

/** Resume or Stop on a batch's card. */
export const batchControlAction =
  (deps: Deps, what: 'resume' | 'stop'): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    let text: string | undefined;
    try {
      const outcome = await deps.app.batches[what](click.requestId, slackActor(click.user));
      if (outcome.kind === 'step-up') return offerPasskey(client, deps, click, outcome.requestId, 'resume');
      text = answer(outcome, what);
    } catch (err) {
      const redis = redisFailureText(err);
      deps.log[redis ? 'warn' : 'error']({ err, requestId: click.requestId }, `batch ${what} failed`);
      text = redis ?? `Rampart could not ${what} ${click.requestId} just now; nothing changed. Try again in a moment.`;
    }
    if (text) await tell(client, deps, click, text);
  };

export function registerBatchActions(app: Routes, deps: Deps): void {
  registerRequestAgain(app, deps); // request the failed and cancelled rows again
  for (const what of ['resume', 'stop'] as const)
    app.action<BlockButtonAction>(BATCH_ACTIONS[what], batchControlAction(deps, what));
}
