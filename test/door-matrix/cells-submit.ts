/**
 * The submission half's drivers: each drives one door for real with a setup that breaks exactly
 * one rule and answers the code that door's reader read back.
 */
import type { RuleId } from '../../src/domain/rules/index.js';
import { newKey } from '../api/support.js';
import { addresses } from '../support/batches.js';
import { PEOPLE } from '../support/harness.js';
import { RECEIVER } from '../support/requests.js';
import { AGAIN, AGAIN_BOOK } from './cells-again.js';
import { BOOK_SUBMIT } from './cells-book.js';
import { importStepUp, importTwice, registerStepUp, registerTwice } from './cells-cli.js';
import { SERIES_SUBMIT, SLACK_SERIES_SUBMIT } from './cells-series-submit.js';
import { listedWhile } from './screening-list.js';
import type { SubmissionDoor } from './table.js';
import {
  AMOUNT,
  approvedFromSlack,
  type Driver,
  frozenWhile,
  viaApiBatch,
  viaApiTransfer,
  viaBatchFile,
  viaModal,
  viaPrefill,
  type World,
} from './world.js';

export { type Driver, frozenWhile } from './world.js';

const R = PEOPLE.requester;
const fullKey = (w: World, limits = {}) => newKey(w.api, { limits: { allowNewDestinations: true, ...limits } });

/** The same submission twice: the first must be taken (it fills the cap), the second answers. */
async function secondRefused(submit: () => Promise<string>): Promise<string> {
  const first = await submit();
  if (first !== 'accepted') return `the first submission was refused: ${first}`;
  return submit();
}

export const SUBMIT_DRIVERS: Partial<Record<RuleId, Partial<Record<SubmissionDoor, Driver>>>> = {
  // USDT has no TWO_APPROVALS_ABOVE threshold: the policy cannot judge it.
  policy: {
    'slack-modal': (w) => viaModal(w.main, R, 'ops', 'ethereum:usdt', AMOUNT.small),
    'slash-prefill': (w) => viaPrefill(w.main, R, 'ops', 'ethereum:usdt', AMOUNT.small),
    'api-transfer': (w) => viaApiTransfer(w.api, { asset: 'ethereum:usdt', amount: '5' }),
    'api-batch': (w) => viaApiBatch(w.api, { asset: 'ethereum:usdt' }),
    'slack-batch-file': (w) => viaBatchFile(w.main, R, { asset: 'ethereum:usdt' }),
    'request-again': AGAIN.policy,
  },
  step_up: {
    'slack-modal': approvedFromSlack((w) => viaModal(w.main, R, 'ops', 'base:usdc', AMOUNT.stepUp)),
    'slash-prefill': approvedFromSlack((w) => viaPrefill(w.main, R, 'ops', 'base:usdc', AMOUNT.stepUp)),
    'api-transfer': approvedFromSlack((w) => viaApiTransfer(w.api, { amount: String(AMOUNT.stepUp) })),
    'api-batch': approvedFromSlack((w) => viaApiBatch(w.api, {}, undefined, 2, String(AMOUNT.stepUp / 2 + 1))),
    'slack-batch-file': approvedFromSlack((w) => viaBatchFile(w.main, R, { amount: AMOUNT.stepUp / 2 + 1 })),
    'beneficiary-register': registerStepUp,
    'cli-import': importStepUp,
    'request-again': AGAIN.stepUp,
  },
  // A key made without --allow-new-destinations, paying an address Rampart never paid.
  new_destination: {
    'api-transfer': async (w) =>
      viaApiTransfer(w.api, { receiver: '0x1111111111111111111111111111111111111111' }, (await newKey(w.api)).token),
    'api-batch': async (w) => viaApiBatch(w.api, {}, (await newKey(w.api)).token),
  },
  // treasury may send 5,000 USDC a day.
  velocity: {
    'slack-modal': (w) => viaModal(w.main, R, 'treasury', 'ethereum:usdc', AMOUNT.overVelocity),
    'slash-prefill': (w) => viaPrefill(w.main, R, 'treasury', 'ethereum:usdc', AMOUNT.overVelocity),
    'api-transfer': (w) =>
      viaApiTransfer(w.api, { wallet: 'treasury', asset: 'ethereum:usdc', amount: String(AMOUNT.overVelocity) }),
    'api-batch': (w) => viaApiBatch(w.api, { wallet: 'treasury', asset: 'ethereum:usdc' }, undefined, 2, '3001'),
    'slack-batch-file': (w) => viaBatchFile(w.main, R, { wallet: 'treasury', asset: 'ethereum:usdc', amount: 3001 }),
    'request-again': AGAIN.velocity,
  },
  // The caps harness allows one open request per person; each cell's person already has one.
  open_caps: {
    'slack-modal': (w) => secondRefused(() => viaModal(w.caps, PEOPLE.approver1, 'ops', 'base:usdc', AMOUNT.small)),
    'slash-prefill': (w) => secondRefused(() => viaPrefill(w.caps, PEOPLE.approver2, 'ops', 'base:usdc', AMOUNT.small)),
    'api-transfer': async (w) => {
      const { token } = await fullKey(w, { maxOpen: 1 });
      return secondRefused(() => viaApiTransfer(w.api, {}, token));
    },
    'api-batch': async (w) => {
      const { token } = await fullKey(w, { maxOpen: 1 });
      return secondRefused(() => viaApiBatch(w.api, {}, token));
    },
    'slack-batch-file': (w) => secondRefused(() => viaBatchFile(w.caps, PEOPLE.groupMember, {})),
    'beneficiary-register': registerTwice,
    'cli-import': importTwice,
    'request-again': AGAIN.openCaps,
  },
  key_scopes: {
    'api-transfer': async (w) => viaApiTransfer(w.api, {}, (await newKey(w.api, { scopes: ['requests:read'] })).token),
    'api-batch': async (w) => viaApiBatch(w.api, {}, (await newKey(w.api, { scopes: ['requests:read'] })).token),
  },
  key_limits: {
    'api-transfer': async (w) => viaApiTransfer(w.api, {}, (await fullKey(w, { wallets: ['treasury'] })).token),
    'api-batch': async (w) => viaApiBatch(w.api, {}, (await fullKey(w, { wallets: ['treasury'] })).token),
  },
  freeze: {
    'api-transfer': (w) => frozenWhile(w, () => viaApiTransfer(w.api, {})),
    'api-batch': (w) => frozenWhile(w, () => viaApiBatch(w.api, {})),
  },
  // The address each door pays is on the loaded list (in the case the door does not type it).
  screening: {
    'slack-modal': (w) =>
      listedWhile(w.main, [RECEIVER.toLowerCase()], () => viaModal(w.main, R, 'ops', 'base:usdc', AMOUNT.small)),
    'slash-prefill': (w) =>
      listedWhile(w.main, [`0x${RECEIVER.slice(2).toUpperCase()}`], () =>
        viaPrefill(w.main, R, 'ops', 'base:usdc', AMOUNT.small),
      ),
    'api-transfer': (w) =>
      listedWhile(w.main, [RECEIVER], () => viaApiTransfer(w.api, { receiver: RECEIVER.toLowerCase() })),
    'api-batch': (w) => {
      const rows = addresses(2, 901).map((receiver, i) => ({ receiver, amount: '1', reference: `INV-${i + 1}` }));
      return listedWhile(w.main, [rows[1]?.receiver ?? ''], () => viaApiBatch(w.api, { rows }));
    },
    'slack-batch-file': (w) => {
      const receivers = addresses(2, 902);
      return listedWhile(w.main, [receivers[0] ?? ''], () => viaBatchFile(w.main, R, { receivers }));
    },
    'request-again': AGAIN.screening,
  },
  // BATCH_MAX_ROWS is 3.
  batch_limits: {
    'api-batch': (w) => viaApiBatch(w.api, {}, undefined, 4),
    'slack-batch-file': (w) => viaBatchFile(w.main, R, { rows: 4 }),
  },
  // The book's rows, and request again: a failed row asked again after the book changed.
  address_book: { ...BOOK_SUBMIT.address_book, 'request-again': AGAIN_BOOK.address_book },
  entry_cooling: { ...BOOK_SUBMIT.entry_cooling, 'request-again': AGAIN_BOOK.entry_cooling },
  entry_removed: { ...BOOK_SUBMIT.entry_removed, 'request-again': AGAIN_BOOK.entry_removed },
};

// The series doors' cells join each rule's row.
for (const [rule, drive] of Object.entries(SERIES_SUBMIT) as [RuleId, Driver][])
  SUBMIT_DRIVERS[rule] = { ...SUBMIT_DRIVERS[rule], series: drive };
for (const [rule, drive] of Object.entries(SLACK_SERIES_SUBMIT) as [RuleId, Driver][])
  SUBMIT_DRIVERS[rule] = { ...SUBMIT_DRIVERS[rule], 'slack-series': drive };
