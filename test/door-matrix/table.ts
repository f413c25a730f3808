/*
 * Mutation check (RAMPART_MUTATE_RULE=<rule> npx vitest run test/e2e/door-matrix.test.ts: the
 * rule's domain function always allows). Cells that then fail, and for the cells that still pass,
 * the store script that enforces the rule and the grid test that holds the script to the function.
 *
 * policy          fails: slack-modal, slash-prefill, api-transfer, api-batch, slack-batch-file,
 *                 request-again, approve-button, passkey-page (and duplicate_vote's approve-button
 *                 and passkey-page: with one approval the first vote already decides).
 * self_approval   fails: resume, record-outcome, record-outcome-cli, confirm-not-paid,
 *                 passkey-enrol-approval. Still pass: approve-button, passkey-page (VOTE script;
 *                 test/store/vote-rules.test.ts).
 * duplicate_vote  fails: none. approve-button, passkey-page: VOTE script (vote-rules.test.ts);
 *                 confirm-not-paid: domain/not-paid.ts confirmRefusal and the finish script
 *                 (test/app/not-paid.test.ts, "the finish script itself refuses"); unfreeze-vote:
 *                 the unfreeze store (no grid test against the function yet).
 * step_up         fails: every submission door, approve-button, resume. Still passes:
 *                 confirm-not-paid (the approval's stored stepUp and the finish script's
 *                 needs-passkey; not-paid.test.ts "a passkey approval's confirmation").
 * new_destination fails: api-transfer, api-batch.
 * velocity        fails: slack-modal, slash-prefill, api-transfer, api-batch, slack-batch-file,
 *                 request-again. Still pass: approve-button, passkey-page (VOTE script at the quorum;
 *                 test/store/velocity-vote.test.ts).
 * open_caps       fails: none. Every door: the create script (test/store/open-caps.test.ts,
 *                 "decides as the domain rule does for every count and cap").
 * key_scopes      fails: api-transfer, api-batch, cancel-api.
 * key_limits      fails: api-transfer, api-batch.
 * freeze          fails: api-transfer, api-batch. Still pass: approve-button, passkey-page (VOTE
 *                 script; vote-rules.test.ts).
 * batch_limits    fails: api-batch, slack-batch-file.
 * approval_state  fails: none. approve-button: VOTE script (vote-rules.test.ts); every other door
 *                 reads the state in its own store step (no grid test against the function yet):
 *                 record-outcome(-cli) and confirm-not-paid the execution's (the finish script
 *                 moves only from unknown); passkey-page refuses the link before any rule (it
 *                 binds only a pending request).
 * not_yet         fails: none. approve-button: the START script compares runAt with Redis TIME
 *                 (test/e2e/time.test.ts fails each of its paths when that check is removed).
 * waiting_cancel  fails: none. cancel-waiting-card, cancel-waiting-api: the WINDOW_CANCEL script
 *                 refuses an approval that is no longer waiting (time.test.ts "already started").
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
  approval_state: { submissions: 'not_pending', decisions: 'not_pending' },
  not_yet: { submissions: 'not_yet', decisions: 'not_yet' },
  waiting_cancel: { submissions: 'not_waiting', decisions: 'not_waiting' },
};

const NO_DECISION = 'n/a: nothing is decided at submission; the decision doors hold this rule';
const ONE_PAYMENT = 'n/a: one payment, not a batch';
export const NO_KEY = 'n/a: no API key comes through this door';
export const NOTHING_MOVES = 'n/a: moves no money';
export const decidedAtSubmission = (why: string): Half<DecisionDoor> =>
  Object.fromEntries(DECISION_DOORS.map((d) => [d, `n/a: ${why}`])) as Half<DecisionDoor>;
export const same = <D extends string>(doors: readonly D[], cell: Cell): Half<D> =>
  Object.fromEntries(doors.map((d) => [d, cell])) as Half<D>;

export const SUBMISSIONS: Record<RuleId, Half<SubmissionDoor>> = {
  policy: {
    'slack-modal': 'applies',
    'slash-prefill': 'applies',
    'api-transfer': 'applies',
    'api-batch': 'applies',
    'slack-batch-file': 'applies',
    'request-again': 'applies',
    'beneficiary-register': 'n/a: a registration needs APPROVALS_REQUIRED approvals whatever it pays; no refusal',
    'cli-import': 'n/a: a registration needs APPROVALS_REQUIRED approvals whatever it pays; no refusal',
  },
  self_approval: same(SUBMISSION_DOORS, NO_DECISION),
  duplicate_vote: same(SUBMISSION_DOORS, NO_DECISION),
  step_up: {
    'slack-modal': 'applies',
    'slash-prefill': 'applies',
    'api-transfer': 'applies',
    'api-batch': 'applies',
    'slack-batch-file': 'applies',
    'request-again': 'applies',
    'beneficiary-register': 'applies',
    'cli-import': 'applies',
  },
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
  },
  velocity: {
    'slack-modal': 'applies',
    'slash-prefill': 'applies',
    'api-transfer': 'applies',
    'api-batch': 'applies',
    'slack-batch-file': 'applies',
    'request-again': 'applies',
    'beneficiary-register': NOTHING_MOVES,
    'cli-import': NOTHING_MOVES,
  },
  open_caps: {
    'slack-modal': 'applies',
    'slash-prefill': 'applies',
    'api-transfer': 'applies',
    'api-batch': 'applies',
    'slack-batch-file': 'applies',
    'request-again': 'applies',
    'beneficiary-register': 'applies',
    'cli-import': 'applies',
  },
  key_scopes: {
    ...same(SUBMISSION_DOORS, NO_KEY),
    'api-transfer': 'applies',
    'api-batch': 'applies',
  },
  key_limits: {
    ...same(SUBMISSION_DOORS, NO_KEY),
    'api-transfer': 'applies',
    'api-batch': 'applies',
  },
  freeze: {
    ...same(
      SUBMISSION_DOORS,
      'n/a: taken while frozen (the freeze holds its approval and its start: the decision half); only the API refuses at submission',
    ),
    'api-transfer': 'applies',
    'api-batch': 'applies',
  },
  batch_limits: {
    ...same(SUBMISSION_DOORS, ONE_PAYMENT),
    'api-batch': 'applies',
    'slack-batch-file': 'applies',
    'request-again': 'n/a: its rows are an accepted batch’s rows, already within BATCH_MAX_ROWS',
    'cli-import': 'n/a: a registration file is held to its own row limit, not BATCH_MAX_ROWS',
    'beneficiary-register': 'n/a: one form',
  },
  approval_state: same(SUBMISSION_DOORS, NO_DECISION),
  not_yet: same(
    SUBMISSION_DOORS,
    'n/a: decided at the start (the START script), after the quorum; a submission only seals the timing',
  ),
  waiting_cancel: same(SUBMISSION_DOORS, 'n/a: nothing waits at submission; a pending request has its own cancel'),
};
