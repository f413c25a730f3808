/*
 * Mutation check (RAMPART_MUTATE_RULE=<rule> npx vitest run test/e2e/door-matrix.test.ts: the
 * rule's domain function always allows), run on 2026-11-28: every cell that applies fails, for
 * every rule (policy 8 of 8, and duplicate_vote's approve-button and passkey-page with it: with one
 * approval the first vote already decides; self_approval 7/7; duplicate_vote 4/4; step_up 11/11;
 * new_destination 2/2; velocity 8/8; open_caps 8/8; key_scopes 4/4; key_limits 2/2; freeze 4/4;
 * batch_limits 2/2; approval_state 12/12; not_yet 1/1; waiting_cancel 2/2). The address book's rules,
 * run on 2026-11-28 (the cells of their rows, with the table checks): entry_removed 6/6 (five
 * payment doors, and address-remove through door-matrix/agreement.ts); entry_cooling 2/2;
 * address_book 5/5 (in BOOK_ENV's world, DESTINATIONS=book); lookalike 2/2, run on 2026-11-29
 * (approve-button and address-approve: a vote on an approval that carries one counts only with
 * the card's warnings confirmed; the vote script decides it). The
 * address-approve column's cells, each failing under its own rule: policy (and duplicate_vote's
 * with it: with one approval the first vote decides), duplicate_vote, step_up, freeze and
 * approval_state 1/1 each. A series' rows, run on 2026-11-29: series_who 4/4 (series-skip and
 * series-end from the CLI, slack-series-skip and slack-series-end from the buttons); series_state
 * 4/4 (through door-matrix/agreement.ts: the scripts
 * answer already_ended themselves). Run on 2026-11-29: request-again × address_book,
 * entry_cooling and entry_removed 1/1 each (a failed row asked again after the book changed), and
 * address-approve × screening 1/1 (an entry listed while its card waited adds nothing).
 * The series submission columns (run on 2026-11-29, each cell alone under its rule's
 * mutation): `series` (the API's schedule) policy, step_up, new_destination, velocity, open_caps,
 * key_scopes, key_limits, freeze, screening, address_book and entry_removed 1/1 each;
 * `slack-series` (the form's repeat) policy, step_up, velocity, open_caps, screening, address_book
 * and entry_removed 1/1 each. series_recheck and run_funds are decided
 * before each run by the worker, n/a at every door (test/app/series-runs.test.ts holds them).
 * Where a store script
 * enforces the rule (VOTE, CREATE, FINISH, START, WINDOW_CANCEL), the door's answer comes from the script and the cell fails through door-matrix/
 * agreement.ts (the function on the situation the row stages must answer the door's code); the
 * store grid tests hold each script to its function over every combination of facts.
 */
/**
 * The door matrix's one table: every way in (a submission door or a decision door) against every
 * rule of domain/rules. A cell says `applies` (the matrix drives that door with a setup that
 * breaks exactly that rule and expects the rule's code), `n/a: why`, `pending: why` (the door is
 * being built on another branch), or `todo: what the driver needs` (applies, not driven yet).
 */
import type { RuleId } from '../../src/domain/rules/index.js';

export const SUBMISSION_DOORS = [
  'slack-modal',
  'slash-prefill',
  'api-transfer',
  'api-batch',
  'slack-batch-file',
  'request-again',
  'beneficiary-register',
  'cli-import',
  // Recurring payouts: POST /transfers with a `schedule`, and the /transfer form's repeat fields
  // (every amount rule on the series' total).
  'series',
  'slack-series',
] as const;

export const DECISION_DOORS = [
  'approve-button',
  'passkey-page',
  'deny',
  'cancel-card',
  'cancel-api',
  'cancel-waiting-card',
  'cancel-waiting-api',
  'resume',
  'stop',
  'record-outcome',
  'record-outcome-cli',
  'confirm-not-paid',
  'unfreeze-vote',
  'passkey-enrol-approval',
  'address-approve',
  'address-remove',
  'series-skip',
  'series-end',
  'slack-series-skip',
  'slack-series-end',
] as const;

export type SubmissionDoor = (typeof SUBMISSION_DOORS)[number];
export type DecisionDoor = (typeof DECISION_DOORS)[number];
export type Door = SubmissionDoor | DecisionDoor;
export type Cell = 'applies' | `n/a: ${string}` | `pending: ${string}` | `todo: ${string}`;
export type Half<D extends string> = Record<D, Cell>;

/** The one code a row asserts from every door of a half (a rule may answer with others elsewhere). */
export const CODES: Record<RuleId, { submissions: string; decisions: string }> = {
  policy: { submissions: 'policy_refused', decisions: 'quorum_not_reached' },
  self_approval: { submissions: 'self_approval', decisions: 'self_approval' },
  duplicate_vote: { submissions: 'duplicate_vote', decisions: 'duplicate_vote' },
  step_up: { submissions: 'step_up_required', decisions: 'step_up_required' },
  new_destination: { submissions: 'new_destination_not_allowed', decisions: 'new_destination_not_allowed' },
  velocity: { submissions: 'over_limit', decisions: 'over_limit' },
  open_caps: { submissions: 'too_many_open', decisions: 'too_many_open' },
  key_scopes: { submissions: 'missing_scope', decisions: 'missing_scope' },
  key_limits: { submissions: 'wallet_not_allowed', decisions: 'wallet_not_allowed' },
  freeze: { submissions: 'frozen', decisions: 'frozen' },
  batch_limits: { submissions: 'batch_too_large', decisions: 'batch_too_large' },
  screening: { submissions: 'screening_listed', decisions: 'screening_listed' },
  approval_state: { submissions: 'not_pending', decisions: 'not_pending' },
  not_yet: { submissions: 'not_yet', decisions: 'not_yet' },
  waiting_cancel: { submissions: 'not_waiting', decisions: 'not_waiting' },
  address_book: { submissions: 'not_in_book', decisions: 'not_in_book' },
  entry_cooling: { submissions: 'entry_cooling', decisions: 'entry_cooling' },
  entry_removed: { submissions: 'entry_removed', decisions: 'entry_removed' },
  lookalike: { submissions: 'lookalike_unconfirmed', decisions: 'lookalike_unconfirmed' },
  series_recheck: { submissions: 'more_approvals', decisions: 'more_approvals' },
  run_funds: { submissions: 'run_unfunded', decisions: 'run_unfunded' },
  series_who: { submissions: 'not_an_approver', decisions: 'not_an_approver' },
  series_state: { submissions: 'already_ended', decisions: 'already_ended' },
};

const NOT_AN_ADDRESS = 'n/a: adds beneficiaries, which are not addresses';

const NO_DECISION = 'n/a: nothing is decided at submission; the decision doors hold this rule';
const ONE_PAYMENT = 'n/a: one payment, not a batch';
export const NO_KEY = 'n/a: no API key comes through this door';
export const NOTHING_MOVES = 'n/a: moves no money';
export const decidedAtSubmission = (why: string): Half<DecisionDoor> =>
  Object.fromEntries(DECISION_DOORS.map((d) => [d, `n/a: ${why}`])) as Half<DecisionDoor>;
export const same = <D extends string>(doors: readonly D[], cell: Cell): Half<D> =>
  Object.fromEntries(doors.map((d) => [d, cell])) as Half<D>;
/** A row only the API's doors apply (a transfer, a batch, a series); every other door holds `cell`. */
const apiOnly = (cell: Cell): Half<SubmissionDoor> => ({
  ...same(SUBMISSION_DOORS, cell),
  'api-transfer': 'applies',
  'api-batch': 'applies',
  series: 'applies',
});
/** The rows decided before each run of a live series, by the worker: no door decides them. */
export const BEFORE_EACH_RUN =
  'n/a: decided before each run of a live series (app/series/recheck.ts, test/app/series-runs.test.ts), never by a door';
/** A row every payment door applies, where both registration doors share one other cell. */
const payments = (registrations: Cell, over: Partial<Half<SubmissionDoor>> = {}): Half<SubmissionDoor> => ({
  ...same(SUBMISSION_DOORS, 'applies'),
  'beneficiary-register': registrations,
  'cli-import': registrations,
  ...over,
});

export const SUBMISSIONS: Record<RuleId, Half<SubmissionDoor>> = {
  policy: payments('n/a: a registration needs APPROVALS_REQUIRED approvals whatever it pays; no refusal'),
  self_approval: same(SUBMISSION_DOORS, NO_DECISION),
  duplicate_vote: same(SUBMISSION_DOORS, NO_DECISION),
  step_up: same(SUBMISSION_DOORS, 'applies'),
  new_destination: {
    'slack-modal': 'n/a: people in Slack may pay new destinations (the card says so; the step-up row may ask passkeys)',
    'slash-prefill':
      'n/a: people in Slack may pay new destinations (the card says so; the step-up row may ask passkeys)',
    'api-transfer': 'applies',
    'api-batch': 'applies',
    'slack-batch-file': 'n/a: people in Slack may pay new destinations (each row says so)',
    'request-again': 'n/a: people in Slack may pay new destinations (each row says so)',
    'beneficiary-register': 'n/a: it adds destinations; the step-up row holds it',
    'cli-import': 'n/a: it adds destinations; the step-up row holds it',
    series: 'applies',
    'slack-series':
      'n/a: people in Slack may pay new destinations (the card says so; the step-up row may ask passkeys)',
  },
  velocity: payments(NOTHING_MOVES),
  open_caps: same(SUBMISSION_DOORS, 'applies'),
  key_scopes: apiOnly(NO_KEY),
  key_limits: apiOnly(NO_KEY),
  freeze: apiOnly(
    'n/a: taken while frozen (the freeze holds its approval and its start: the decision half); only the API refuses at submission',
  ),
  batch_limits: {
    ...same(SUBMISSION_DOORS, ONE_PAYMENT),
    'api-batch': 'applies',
    'slack-batch-file': 'applies',
    'request-again': 'n/a: its rows are an accepted batch’s rows, already within BATCH_MAX_ROWS',
    'cli-import': 'n/a: a registration file is held to its own row limit, not BATCH_MAX_ROWS',
    'beneficiary-register': 'n/a: one form',
    series: 'n/a: one payment per run, not a batch',
    'slack-series': 'n/a: one payment per run, not a batch',
  },
  screening: payments('n/a: a beneficiary is a bank account; the list holds addresses'),
  approval_state: same(SUBMISSION_DOORS, NO_DECISION),
  not_yet: same(
    SUBMISSION_DOORS,
    'n/a: decided at the start (the START script), after the quorum; a submission only seals the timing',
  ),
  waiting_cancel: same(SUBMISSION_DOORS, 'n/a: nothing waits at submission; a pending request has its own cancel'),
  address_book: {
    ...same(SUBMISSION_DOORS, 'applies'),
    'beneficiary-register': NOT_AN_ADDRESS,
    'cli-import': NOT_AN_ADDRESS,
  },
  entry_cooling: {
    'slack-modal': 'n/a: a single payment to a cooling entry waits in its start script, never refused',
    'slash-prefill': 'n/a: a single payment to a cooling entry waits in its start script, never refused',
    'api-transfer': 'n/a: a single payment to a cooling entry waits in its start script, never refused',
    'api-batch': 'applies',
    'slack-batch-file': 'applies',
    'request-again': 'applies',
    'beneficiary-register': NOT_AN_ADDRESS,
    'cli-import': NOT_AN_ADDRESS,
    series: 'n/a: each run to a cooling entry waits in its start script, as a single payment does; never refused',
    'slack-series':
      'n/a: each run to a cooling entry waits in its start script, as a single payment does; never refused',
  },
  entry_removed: payments(NOT_AN_ADDRESS),
  lookalike: same(SUBMISSION_DOORS, 'n/a: flagged on the card and confirmed at approval (the decision half)'),
  series_recheck: same(SUBMISSION_DOORS, BEFORE_EACH_RUN),
  run_funds: same(SUBMISSION_DOORS, BEFORE_EACH_RUN),
  series_who: same(SUBMISSION_DOORS, 'n/a: a submission skips or ends no series (the decision half)'),
  series_state: same(SUBMISSION_DOORS, 'n/a: a submission skips or ends no series (the decision half)'),
};
