/** The decision half of the door matrix's table (test/door-matrix/table.ts says what a cell means). */
import type { RuleId } from '../../src/domain/rules/index.js';
import {
  DECISION_DOORS,
  type DecisionDoor,
  decidedAtSubmission,
  type Half,
  NO_KEY,
  NOTHING_MOVES,
  same,
} from './table.js';

const REFUSING = 'n/a: refusing or withdrawing moves no money';
const PAGE = 'todo: drive the passkey page with the software authenticator';
const SETTLING = 'n/a: settles an execution that ran';

export const DECISIONS: Record<RuleId, Half<DecisionDoor>> = {
  policy: {
    ...same(DECISION_DOORS, 'n/a: no quorum at this door'),
    'approve-button': 'applies',
    'passkey-page': PAGE,
    'unfreeze-vote': 'n/a: its own two-approver rule (the duplicate row), not the payment policy',
  },
  self_approval: {
    'approve-button': 'applies',
    'passkey-page': PAGE,
    deny: 'n/a: anyone who may approve may deny, the requester included: refusing moves nothing',
    'cancel-card': 'n/a: only the requester cancels (the opposite rule)',
    'cancel-api': 'n/a: only the key owner’s own requests are cancelled (the opposite rule)',
    resume: 'applies',
    stop: 'n/a: the requester may stop their own batch: stopping moves nothing',
    'record-outcome': 'applies',
    'record-outcome-cli': 'applies',
    'confirm-not-paid':
      'todo: the not-paid confirmation (on main: the passkey page, purpose confirm-not-paid) is being rebuilt on another branch; its driver comes with it',
    'unfreeze-vote': 'n/a: a freeze has no requester; two different people is the duplicate row',
    'passkey-enrol-approval': 'applies',
  },
  duplicate_vote: {
    ...same(DECISION_DOORS, 'n/a: one person decides at this door'),
    'approve-button': 'applies',
    'passkey-page': PAGE,
    'confirm-not-paid':
      'todo: the not-paid confirmation (on main: the passkey page, purpose confirm-not-paid) is being rebuilt on another branch; its driver comes with it',
    'unfreeze-vote': 'applies',
  },
  step_up: {
    ...same(DECISION_DOORS, REFUSING),
    'approve-button': 'applies',
    'passkey-page': 'n/a: it is the step-up: the vote carries a verified passkey',
    resume: 'todo: needs a step-up batch paused mid-run',
    'record-outcome': SETTLING,
    'record-outcome-cli': SETTLING,
    'confirm-not-paid':
      'todo: the not-paid confirmation (on main: the passkey page, purpose confirm-not-paid) is being rebuilt on another branch; its driver comes with it',
    'unfreeze-vote': 'n/a: no passkey on an unfreeze vote today',
    'passkey-enrol-approval': 'n/a: approved on the passkey page with the approver’s own passkey',
  },
  new_destination: decidedAtSubmission('decided at submission'),
  velocity: {
    ...same(DECISION_DOORS, REFUSING),
    'approve-button': 'applies',
    'passkey-page': PAGE,
    resume: 'n/a: the batch’s total was counted at its quorum',
    'record-outcome': 'n/a: not paid gives the amount back; paid keeps it',
    'record-outcome-cli': 'n/a: not paid gives the amount back; paid keeps it',
    'confirm-not-paid': 'n/a: not paid gives the amount back',
    'unfreeze-vote': 'n/a: release starts what was counted at each quorum',
    'passkey-enrol-approval': NOTHING_MOVES,
  },
  open_caps: decidedAtSubmission('a decision opens nothing'),
  key_scopes: { ...same(DECISION_DOORS, NO_KEY), 'cancel-api': 'applies' },
  key_limits: {
    ...same(DECISION_DOORS, NO_KEY),
    'cancel-api': 'n/a: cancelling moves nothing; the key’s money limits do not bound it',
  },
  freeze: {
    ...same(DECISION_DOORS, REFUSING),
    'approve-button': 'applies',
    'passkey-page': PAGE,
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
    'passkey-page': PAGE,
    deny: 'applies',
    'cancel-card': 'applies',
    'cancel-api': 'applies',
    resume: 'applies',
    stop: 'applies',
    'record-outcome': 'applies',
    'record-outcome-cli': 'applies',
    'confirm-not-paid':
      'todo: the not-paid confirmation (on main: the passkey page, purpose confirm-not-paid) is being rebuilt on another branch; its driver comes with it',
    'unfreeze-vote': 'applies',
    'passkey-enrol-approval': 'applies',
  },
};
