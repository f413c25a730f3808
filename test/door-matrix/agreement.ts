/**
 * Where a store script enforces a rule (it checks and records in one atomic step: the VOTE,
 * CREATE, FINISH, START and WINDOW_CANCEL scripts), a door's answer comes from the script, not from the rule's domain
 * function. Each such row also states, as the domain function's input, the situation its drivers
 * stage, and every cell of the row asserts that the function answers the code the door answered.
 * The door and the rule are then held together at every door: a domain function changed (or
 * replaced by one that always allows) without its script fails the row from every door, and the
 * store grid tests (test/store/vote-rules, velocity-vote, open-caps) hold each script to its
 * function over every combination of facts.
 */
import { entryStartRule } from '../../src/domain/address-book.js';
import {
  approvalStateRule,
  freezeRule,
  lookalikeConfirmRule,
  noSelfApproval,
  notTheSamePersonTwice,
  notYetRule,
  openCapRule,
  type RuleId,
  seriesEndRule,
  seriesSkipRule,
  stepUpProofRule,
  velocityRule,
  waitingCancelRule,
} from '../../src/domain/rules/index.js';
import { PEOPLE } from '../support/harness.js';
import { CAPS_ENV, MAIN_ENV, TIME_ENV } from './world.js';

const USDC = 10n ** 6n;
const DAY_MS = 86_400_000;

/** MAIN_ENV's VELOCITY_LIMITS, as the rule the velocity drivers break (3,000 + 3,000 > 5,000). */
function treasuryLimit() {
  if (MAIN_ENV.VELOCITY_LIMITS !== 'treasury:USDC=5000/24h') throw new Error('the staged limit changed');
  const text = MAIN_ENV.VELOCITY_LIMITS;
  return {
    wallet: 'treasury',
    code: 'USDC',
    decimals: 6,
    limit: 5_000n * USDC,
    windowMs: DAY_MS,
    windowLabel: '24h',
    text,
  };
}

/** The rule's domain function on the situation every driver of its row stages: its code, or 'allowed'. */
export const STAGED: Partial<Record<RuleId, () => string>> = {
  // The requester (approver2 in the drivers) decides on their own request.
  self_approval: () => codeOf(noSelfApproval({ user: PEOPLE.approver2 }, PEOPLE.approver2)),
  // approver1 (or the proposer) decides a second time.
  duplicate_vote: () => codeOf(notTheSamePersonTwice({ user: PEOPLE.approver1 }, [PEOPLE.approver1])),
  // A request that needs step-up, decided without a passkey.
  step_up: () => codeOf(stepUpProofRule(true, false)),
  // A payment to a lookalike (or an entry that is one) approved without the warnings confirmed.
  lookalike: () => codeOf(lookalikeConfirmRule(true, false)),
  // Rampart is frozen while the decision arrives.
  freeze: () => codeOf(freezeRule(true)),
  // Someone else denied or cancelled the request a moment before; it had not expired.
  approval_state: () => codeOf(approvalStateRule({ state: 'denied', expiresAt: Number.MAX_SAFE_INTEGER }, Date.now())),
  // 3,000 USDC already counted in the window, 3,000 more asked.
  velocity: () => codeOf(velocityRule([{ rule: treasuryLimit(), used: 3_000n * USDC }], 3_000n * USDC)),
  // The wake-up behind the quorum tries the start an hour (TIME_ENV's DELAY) before its runAt.
  not_yet: () => {
    if (TIME_ENV.DELAY !== '1h') throw new Error('the staged delay changed');
    const now = Date.now();
    return codeOf(notYetRule(now + 3_600_000, now));
  },
  // A second cancel by an approver: the first ended the approval (done, nothing started).
  waiting_cancel: () =>
    codeOf(
      waitingCancelRule(
        { user: PEOPLE.approver1 },
        { requester: PEOPLE.requester, isApprover: true, approvalState: 'done', started: 0, runAt: Date.now() },
      ),
    ),
  // The entry was removed (by approver2) before the door asked: a second removal finds none live,
  // and the START script (includes/book.lua, held to entryStartRule by test/store/book-start.test.ts)
  // cancels what was sealed with it.
  entry_removed: () => {
    const now = Date.now();
    const entry = { id: 'A-1', removedAt: now - 1, usableAt: now - 1, wallets: '*' as const, approvedAt: now - 2 };
    const verdict = entryStartRule(entry, { entryId: 'A-1', walletId: 'ops', approvedAt: now - 1 }, now);
    return 'ok' in verdict ? codeOf(verdict) : 'waits';
  },
  // Another approver ended the series a moment before: a skip and an end both find it ended.
  series_state: () => {
    const f = { state: 'ended', requester: PEOPLE.requester, isApprover: true, runs: 3, marks: [] };
    const skip = codeOf(seriesSkipRule({ user: PEOPLE.approver1 }, f, 2));
    const end = codeOf(seriesEndRule({ user: PEOPLE.approver1 }, f));
    return skip === end ? skip : `skip ${skip}, end ${end}`;
  },
  // One request open under CAPS_ENV's MAX_OPEN_PER_REQUESTER=1.
  open_caps: () => {
    const cap = Number(CAPS_ENV.MAX_OPEN_PER_REQUESTER);
    return codeOf(openCapRule({ requester: cap }, { requester: cap }));
  },
};

function codeOf(outcome: { ok: boolean; code?: string }): string {
  return outcome.ok ? 'allowed' : (outcome.code ?? 'refused without a code');
}
