/**
 * Resume on a step-up batch: a batch above STEP_UP_ABOVE, approved with two passkeys on the page,
 * paused by its funding check (the wallet held less than its total when the first row would start),
 * then Resume from Slack alone — a click is not a passkey.
 */
import { waitForApproval } from '../support/batches.js';
import { PEOPLE } from '../support/harness.js';
import { onPage } from './cells-page.js';
import { AMOUNT, cards, clickCard, type Driver, newestCardId, viaBatchFile } from './world.js';

const OPS = 'wal_ops_7f3a';

export const resumeWithoutPasskey: Driver = async (w) => {
  const h = w.main;
  const before = cards(h);
  const code = await viaBatchFile(h, PEOPLE.requester, { amount: AMOUNT.stepUp / 2 + 1 });
  if (code !== 'accepted') return `the setup's batch was refused: ${code}`;
  const id = await newestCardId(h, before);
  const holding = h.sandbox.state.balances.get(OPS)?.get('base:usdc');
  if (!holding) throw new Error('no ops holding in the sandbox');
  const saved = holding.available;
  holding.available = 1_000_000n; // 1 USDC: the funding check pauses the batch before any row.
  try {
    for (const approver of [PEOPLE.approver1, PEOPLE.approver2]) await onPage(h, approver, id);
    await waitForApproval(h, id, 'paused');
  } finally {
    holding.available = saved;
  }
  return clickCard(h, PEOPLE.approver1, id, 'batch_resume');
};
