/** The decision half of the door matrix's table (test/door-matrix/table.ts says what a cell means). */
import type { RuleId } from '../../src/domain/rules/index.js';
import {
  BEFORE_EACH_RUN,
  type Cell,
  DECISION_DOORS,
  type DecisionDoor,
  decidedAtSubmission,
  type Half,
  NO_KEY,
  NOTHING_MOVES,
  same,
} from './table.js';

const REFUSING = 'n/a: refusing or withdrawing moves no money';
const SETTLING = 'n/a: settles an execution that ran';

type AddressDoor = 'address-approve' | 'address-remove';
const REMOVE_ONLY = 'n/a: removing an entry moves nothing and stops what it would have paid';
type SeriesDoor = 'series-skip' | 'series-end' | 'slack-series-skip' | 'slack-series-end';
/** The CLI's `rampart schedules skip|end` and the Slack buttons (card, notice, /schedules, App Home). */
const SERIES_DOORS: SeriesDoor[] = ['series-skip', 'series-end', 'slack-series-skip', 'slack-series-end'];
const STOPS = 'n/a: skipping a run or ending a series moves no money; it only stops what would have been sent';
const SERIES_ONLY = 'n/a: decides nothing about a series (the series-skip and series-end columns)';

/**
 * The address book's two decision doors: Approve on an entry's card (an approval like any other:
 * its vote script holds the people rules) and `rampart addresses remove` (any approver, at once).
 */
const ADDRESS_CELLS: Record<RuleId, Record<AddressDoor, Cell>> = {
  policy: {
    'address-approve': 'applies',
    'address-remove': REMOVE_ONLY,
  },
  self_approval: { 'address-approve': 'applies', 'address-remove': REMOVE_ONLY },
  duplicate_vote: {
    'address-approve': 'applies',
    'address-remove': REMOVE_ONLY,
  },
  step_up: {
    'address-approve': 'applies',
    'address-remove': REMOVE_ONLY,
  },
  new_destination: { 'address-approve': 'n/a: decided at submission', 'address-remove': REMOVE_ONLY },
  velocity: { 'address-approve': NOTHING_MOVES, 'address-remove': REMOVE_ONLY },
  not_yet: { 'address-approve': 'n/a: an entry has no runAt; it cools off instead', 'address-remove': REMOVE_ONLY },
  waiting_cancel: { 'address-approve': 'n/a: not a cancel inside the wait', 'address-remove': REMOVE_ONLY },
  open_caps: { 'address-approve': 'n/a: a decision opens nothing', 'address-remove': REMOVE_ONLY },
  key_scopes: { 'address-approve': NO_KEY, 'address-remove': NO_KEY },
  key_limits: { 'address-approve': NO_KEY, 'address-remove': NO_KEY },
  freeze: {
    'address-approve': 'applies',
    'address-remove': 'n/a: removing stops money; any approver may remove while frozen',
  },
  batch_limits: { 'address-approve': 'n/a: decided at submission', 'address-remove': REMOVE_ONLY },
  approval_state: { 'address-approve': 'applies', 'address-remove': REMOVE_ONLY },
  address_book: { 'address-approve': 'n/a: it adds to the book', 'address-remove': REMOVE_ONLY },
  entry_cooling: { 'address-approve': 'n/a: cooling starts at this approval', 'address-remove': REMOVE_ONLY },
  entry_removed: {
    'address-approve': 'n/a: an addition makes a new entry',
    'address-remove': 'applies',
  },
  screening: {
    'address-approve': 'applies',
    'address-remove': REMOVE_ONLY,
  },
  lookalike: {
    'address-approve': 'applies',
    'address-remove': REMOVE_ONLY,
  },
  series_recheck: { 'address-approve': BEFORE_EACH_RUN, 'address-remove': REMOVE_ONLY },
  run_funds: { 'address-approve': BEFORE_EACH_RUN, 'address-remove': REMOVE_ONLY },
  series_who: same(['address-approve', 'address-remove'], SERIES_ONLY),
  series_state: same(['address-approve', 'address-remove'], SERIES_ONLY),
};

/**
 * A series' two decision doors: Skip one run (any approver, before the run is created) and End
 * (any approver or the requester; a created, unsent run is cancelled in the same step). Today
 * they are reached from `rampart schedules skip|end` and from the Slack buttons (one handler for the
 * card, the notice before a run, /schedules and App Home), which call the same use cases.
 */
const SERIES_CELLS: Record<RuleId, Record<SeriesDoor, Cell>> = {
  policy: same(SERIES_DOORS, STOPS),
  self_approval: {
    ...same(
      ['series-skip', 'slack-series-skip'],
      'n/a: the requester is not asked; any approver may skip (the series_who row)',
    ),
    ...same(['series-end', 'slack-series-end'], 'n/a: the requester may end their own series: ending moves nothing'),
  },
  duplicate_vote: same(SERIES_DOORS, 'n/a: one person decides at this door'),
  step_up: same(SERIES_DOORS, STOPS),
  new_destination: same(SERIES_DOORS, 'n/a: decided at the series’ submission'),
  velocity: {
    ...same(['series-skip', 'slack-series-skip'], 'n/a: a skipped run is never created, so it reserves nothing'),
    ...same(
      ['series-end', 'slack-series-end'],
      'n/a: the cancelled run’s reservation is given back in the end’s step (test/store/series-runs)',
    ),
  },
  open_caps: same(SERIES_DOORS, 'n/a: opens nothing'),
  key_scopes: same(SERIES_DOORS, NO_KEY),
  key_limits: same(SERIES_DOORS, NO_KEY),
  freeze: same(SERIES_DOORS, 'n/a: stopping money is allowed while frozen'),
  batch_limits: same(SERIES_DOORS, 'n/a: decided at the series’ submission'),
  screening: same(SERIES_DOORS, STOPS),
  approval_state: same(SERIES_DOORS, 'n/a: a live series is past pending; its own state is the series_state row'),
  not_yet: same(SERIES_DOORS, 'n/a: starts nothing'),
  waiting_cancel: same(SERIES_DOORS, 'n/a: a created run is cancelled on its own card (the cancel-waiting doors)'),
  address_book: same(SERIES_DOORS, 'n/a: decided at the series’ submission'),
  entry_cooling: same(SERIES_DOORS, 'n/a: decided at each run’s start'),
  entry_removed: same(SERIES_DOORS, 'n/a: decided at each run’s start'),
  lookalike: same(SERIES_DOORS, 'n/a: flagged at the series’ submission'),
  series_who: same(SERIES_DOORS, 'applies'),
  series_state: same(SERIES_DOORS, 'applies'),
  series_recheck: same(SERIES_DOORS, BEFORE_EACH_RUN),
  run_funds: same(SERIES_DOORS, BEFORE_EACH_RUN),
};

const BOOK_AT_SUBMISSION = 'n/a: decided at submission (a single payment’s cooling and a removal in its START script)';

const PAYMENT_DOORS: Record<RuleId, Half<Exclude<DecisionDoor, AddressDoor | SeriesDoor>>> = {
  policy: {
    ...same(DECISION_DOORS, 'n/a: no quorum at this door'),
    'approve-button': 'applies',
    'passkey-page': 'applies',
    'unfreeze-vote': 'n/a: its own two-approver rule (the duplicate row), not the payment policy',
  },
  self_approval: {
    'approve-button': 'applies',
    'passkey-page': 'applies',
    deny: 'n/a: anyone who may approve may deny, the requester included: refusing moves nothing',
    'cancel-card': 'n/a: only the requester cancels (the opposite rule)',
    'cancel-api': 'n/a: only the key owner’s own requests are cancelled (the opposite rule)',
    'cancel-waiting-card': 'n/a: the requester may cancel their own waiting payment: cancelling moves nothing',
    'cancel-waiting-api': 'n/a: only the key owner’s own requests are cancelled (the opposite rule)',
    resume: 'applies',
    stop: 'n/a: the requester may stop their own batch: stopping moves nothing',
    'record-outcome': 'applies',
    'record-outcome-cli': 'applies',
    'confirm-not-paid': 'applies',
    'unfreeze-vote': 'n/a: a freeze has no requester; two different people is the duplicate row',
    'passkey-enrol-approval': 'applies',
  },
  duplicate_vote: {
    ...same(DECISION_DOORS, 'n/a: one person decides at this door'),
    'approve-button': 'applies',
    'passkey-page': 'applies',
    'confirm-not-paid': 'applies',
    'unfreeze-vote': 'applies',
  },
  step_up: {
    ...same(DECISION_DOORS, REFUSING),
    'approve-button': 'applies',
    'passkey-page': 'n/a: it is the step-up: the vote carries a verified passkey',
    resume: 'applies',
    'record-outcome': SETTLING,
    'record-outcome-cli': SETTLING,
    'confirm-not-paid': 'applies',
    'unfreeze-vote': 'n/a: no passkey on an unfreeze vote today',
    'passkey-enrol-approval': 'n/a: approved on the passkey page with the approver’s own passkey',
  },
  new_destination: decidedAtSubmission('decided at submission'),
  velocity: {
    ...same(DECISION_DOORS, REFUSING),
    'approve-button': 'applies',
    'passkey-page': 'applies',
    resume: 'n/a: the batch’s total was counted at its quorum',
    'record-outcome': 'n/a: not paid gives the amount back; paid keeps it',
    'record-outcome-cli': 'n/a: not paid gives the amount back; paid keeps it',
    'confirm-not-paid': 'n/a: not paid gives the amount back',
    'unfreeze-vote': 'n/a: release starts what was counted at each quorum',
    'passkey-enrol-approval': NOTHING_MOVES,
  },
  open_caps: decidedAtSubmission('a decision opens nothing'),
  key_scopes: { ...same(DECISION_DOORS, NO_KEY), 'cancel-api': 'applies', 'cancel-waiting-api': 'applies' },
  key_limits: {
    ...same(DECISION_DOORS, NO_KEY),
    'cancel-api': 'n/a: cancelling moves nothing; the key’s money limits do not bound it',
    'cancel-waiting-api': 'n/a: cancelling moves nothing; the key’s money limits do not bound it',
  },
  freeze: {
    ...same(DECISION_DOORS, REFUSING),
    'approve-button': 'applies',
    'passkey-page': 'applies',
    resume: 'n/a: taken while frozen; the START script holds every row',
    'record-outcome': 'n/a: settling what ran moves nothing',
    'record-outcome-cli': 'n/a: settling what ran moves nothing',
    'confirm-not-paid': 'n/a: settling what ran moves nothing',
    'unfreeze-vote': 'n/a: it is the way out of the freeze',
    'passkey-enrol-approval': NOTHING_MOVES,
  },
  batch_limits: decidedAtSubmission('decided at submission'),
  approval_state: {
    'approve-button': 'applies',
    'passkey-page': 'applies',
    deny: 'applies',
    'cancel-card': 'applies',
    'cancel-api': 'applies',
    'cancel-waiting-card': 'n/a: a waiting approval is past pending; the waiting_cancel row holds this door',
    'cancel-waiting-api': 'n/a: a waiting approval is past pending; the waiting_cancel row holds this door',
    resume: 'applies',
    stop: 'applies',
    'record-outcome': 'applies',
    'record-outcome-cli': 'applies',
    'confirm-not-paid': 'applies',
    'unfreeze-vote': 'applies',
    'passkey-enrol-approval': 'applies',
  },
  not_yet: {
    ...same(DECISION_DOORS, 'n/a: starts nothing'),
    'approve-button': 'applies',
    'passkey-page': 'n/a: the same vote script and wake-up as the approve button (its row holds the start)',
    resume: 'n/a: a batch pauses only after a row ran, which is after its runAt',
    'unfreeze-vote': 'n/a: release leaves a waiting approval to its own delayed try (test/e2e/time.test.ts)',
  },
  waiting_cancel: {
    ...same(DECISION_DOORS, 'n/a: not a cancel inside the wait'),
    'cancel-waiting-card': 'applies',
    'cancel-waiting-api': 'applies',
  },
  address_book: decidedAtSubmission('decided at submission'),
  entry_cooling: decidedAtSubmission(BOOK_AT_SUBMISSION),
  entry_removed: decidedAtSubmission(BOOK_AT_SUBMISSION),
  lookalike: {
    ...decidedAtSubmission('flagged at submission; its confirmation is on Approve'),
    'approve-button': 'applies',
    'passkey-page':
      'n/a: a passkey is offered only after Approve’s vote got past the confirmation (the approve-button cell); the page’s vote carries the confirmation its offer was made with',
  },
  screening: same(
    DECISION_DOORS,
    'n/a: a decision lands; the start script then cancels a listed destination, nothing sent (test/e2e/screening.test.ts)',
  ),
  series_recheck: same(DECISION_DOORS, BEFORE_EACH_RUN),
  run_funds: same(DECISION_DOORS, BEFORE_EACH_RUN),
  series_who: same(DECISION_DOORS, SERIES_ONLY),
  series_state: same(DECISION_DOORS, SERIES_ONLY),
};

export const DECISIONS = Object.fromEntries(
  (Object.keys(PAYMENT_DOORS) as RuleId[]).map((rule) => [
    rule,
    { ...PAYMENT_DOORS[rule], ...ADDRESS_CELLS[rule], ...SERIES_CELLS[rule] },
  ]),
) as Record<RuleId, Half<DecisionDoor>>;
