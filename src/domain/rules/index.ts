/**
 * The rule table: every rule Rampart holds a request or a decision to, by its stable code and
 * the pure function that states it. Doors never decide a rule; they map an outcome's code to
 * their own words. `enforcer` says where the decision is made today: in the domain function
 * itself (the use case calls it), or in a store script that checks and records atomically (the
 * function states the same rule and a store test compares the two over a grid).
 */

import { beneficiaryStartRule, destinationRule, entryStartRule, lookalikeOf } from '../address-book.js';
import { holdsOpenPlace } from '../open-caps.js';
import {
  approvalStateRule,
  freezeRule,
  lookalikeConfirmRule,
  noSelfApproval,
  notTheSamePersonTwice,
  stepUpProofRule,
} from './decisions.js';
import { screeningRule } from './screening.js';
import { secondOpinionRule } from './second-opinion.js';
import {
  notCheckableRefusal,
  runFundsRule,
  runKeyRule,
  runRecheckRule,
  seriesKeyRefusal,
  seriesPolicyRule,
  seriesStepUpRule,
} from './series.js';
import { seriesEndRule, seriesSkipRule } from './series-actions.js';
import {
  batchRowsRule,
  keyLimitRule,
  keyScopeRule,
  newDestinationRule,
  openCapRule,
  policyRule,
  stepUpRule,
  velocityRule,
} from './submissions.js';
import { notYetRule, waitingCancelRule } from './time.js';

export * from './decisions.js';
export type { RuleOutcome } from './outcome.js';
export * from './screening.js';
export * from './second-opinion.js';
export * from './series-actions.js';
export * from './submissions.js';
export * from './time.js';

export interface RuleEntry {
  /** The refusal codes this rule answers with (the first is the one a door matrix asserts). */
  codes: readonly string[];
  /** What the rule says, in a sentence. */
  says: string;
  /** The pure functions that state it. */
  functions: readonly ((...args: never[]) => unknown)[];
  /** Where it is decided: the domain function, or (also) a store script named here. */
  enforcer: 'domain' | `script: ${string}`;
}

export const RULES = {
  policy: {
    codes: ['policy_refused', 'quorum_not_reached'],
    says: "How many approvals a request needs (a series' on its total); an amount or asset the policy cannot judge is refused.",
    functions: [policyRule, seriesPolicyRule],
    enforcer: 'domain',
  },
  self_approval: {
    codes: ['self_approval'],
    says: 'Whoever asked for the money never approves it.',
    functions: [noSelfApproval],
    enforcer: 'script: VOTE (store/lua/vote.lua)',
  },
  duplicate_vote: {
    codes: ['duplicate_vote'],
    says: 'One person counts once toward a quorum.',
    functions: [notTheSamePersonTwice],
    enforcer: 'script: VOTE (store/lua/vote.lua)',
  },
  step_up: {
    codes: ['step_up_required'],
    says: 'Above STEP_UP_ABOVE, or for a new destination, every counted vote needs a passkey.',
    functions: [stepUpRule, seriesStepUpRule, stepUpProofRule],
    enforcer: 'domain',
  },
  new_destination: {
    codes: ['new_destination_not_allowed'],
    says: 'An API key without --allow-new-destinations pays only destinations Rampart paid before.',
    functions: [newDestinationRule],
    enforcer: 'domain',
  },
  velocity: {
    codes: ['over_limit'],
    says: 'What leaves one wallet in one asset stays under each VELOCITY_LIMITS window.',
    functions: [velocityRule],
    enforcer: 'script: VOTE at quorum (store/lua/vote.lua); the submission check in the domain',
  },
  open_caps: {
    codes: ['too_many_open'],
    says: 'MAX_OPEN_PER_REQUESTER per person and --max-open per API key; a series counts while pending, not once live.',
    functions: [openCapRule, holdsOpenPlace],
    enforcer: 'script: CREATE (store/lua/create.lua)',
  },
  key_scopes: {
    codes: ['missing_scope', 'key_not_active'],
    says: 'An API key acts only within its scopes, and only while active.',
    functions: [keyScopeRule, seriesKeyRefusal],
    enforcer: 'domain',
  },
  key_limits: {
    codes: ['wallet_not_allowed', 'asset_not_allowed', 'amount_over_key_limit', 'key_limits_unreadable'],
    says: "An API key's wallets, assets and most per request.",
    functions: [keyLimitRule, seriesKeyRefusal],
    enforcer: 'domain',
  },
  freeze: {
    codes: ['frozen'],
    says: 'While frozen no approval lands and nothing starts; the API takes no new payment.',
    functions: [freezeRule],
    enforcer: 'script: VOTE and START (store/lua/vote.lua, start.lua); the API submission in the domain',
  },
  batch_limits: {
    codes: ['batch_too_large'],
    says: 'At most BATCH_MAX_ROWS payments in one batch.',
    functions: [batchRowsRule],
    enforcer: 'domain',
  },
  screening: {
    codes: ['screening_listed', 'screening_no_list', 'screening_stale', 'screening_identified', 'screening_unanswered'],
    says: 'A destination on the loaded sanctions list is never paid; SCREENING=required also needs a fresh list. With SCREENING_URL, one the screening service identifies (or does not answer for, unless SCREENING_ON_ERROR=allow) is refused at submission.',
    functions: [screeningRule, secondOpinionRule],
    enforcer: 'script: START (store/lua/start.lua); the submission check in the domain',
  },
  approval_state: {
    codes: ['not_pending', 'expired', 'missing'],
    says: 'A decision lands only on a pending approval that has not expired.',
    functions: [approvalStateRule],
    enforcer: 'script: VOTE, DECIDE (store/lua/vote.lua, decide.lua)',
  },
  not_yet: {
    codes: ['not_yet'],
    says: 'Nothing starts before its runAt (a cancel window or a set time), on Redis time.',
    functions: [notYetRule],
    enforcer: 'script: START (store/lua/start.lua)',
  },
  waiting_cancel: {
    codes: ['not_allowed_to_cancel', 'already_started', 'not_waiting'],
    says: 'Any one approver or the requester may cancel an approval waiting for its runAt, until a start wins.',
    functions: [waitingCancelRule],
    enforcer: 'script: WINDOW_CANCEL (store/lua/window-cancel.lua); who may cancel in the domain',
  },
  address_book: {
    codes: ['not_in_book', 'wallet_not_in_entry'],
    says: 'With DESTINATIONS=book a transfer goes only to an address-book entry (or an own wallet), from a wallet the entry allows.',
    functions: [destinationRule],
    enforcer: 'domain',
  },
  entry_cooling: {
    codes: ['entry_cooling', 'entry_cooling_over'],
    says: 'An entry (and, outside DESTINATIONS=open, a new beneficiary) is paid only after its cooling-off: a batch row to it is refused; a single payment waits, at most ADDRESS_COOLDOWN after its approval.',
    functions: [destinationRule, entryStartRule, beneficiaryStartRule],
    enforcer:
      'script: START (store/lua/includes/book.lua, held to entryStartRule by test/store/book-start.test.ts and to beneficiaryStartRule by test/store/beneficiary-start.test.ts); a batch row at submission in the domain',
  },
  entry_removed: {
    codes: ['entry_removed'],
    says: 'A removed entry is never paid: refused at submission in every mode, and what was sealed with it is cancelled at its start.',
    functions: [destinationRule, entryStartRule],
    enforcer:
      'script: START (store/lua/includes/book.lua, held to entryStartRule by test/store/book-start.test.ts); the submission in the domain',
  },
  series_recheck: {
    codes: [
      'more_approvals',
      'passkey_needed',
      'delay_needed',
      'key_limit',
      'requester_not_eligible',
      'no_approver_eligible',
      'not_checkable',
    ],
    says: "Before each run, today's rules judge the series as a fresh request: stricter policy, step-up or delay, its API key now revoked, expired or below its total, its requester no longer active, or no one who approved it still an approver skips the run and pauses the series until a fresh approval; so does a run whose asset and amount cannot be read to judge (never sent unchecked).",
    functions: [runRecheckRule, runKeyRule, notCheckableRefusal],
    enforcer: 'script: SERIES_RUN (store/lua/series-run.lua) skips and pauses in the run claim; decided in the domain',
  },
  run_funds: {
    codes: ['run_unfunded'],
    says: "Before each run, the wallet's balance less what approved payments not yet sent commit must cover it, or the run is skipped with the reason (so are a destination now listed or outside the address book).",
    functions: [runFundsRule],
    enforcer: 'domain',
  },
  lookalike: {
    codes: ['lookalike_unconfirmed'],
    says: 'An address with the first 6 and last 4 characters of a known destination is flagged, and a vote on its approval counts only with the warnings confirmed.',
    functions: [lookalikeOf, lookalikeConfirmRule],
    enforcer: 'domain',
  },
  series_who: {
    codes: ['not_an_approver'],
    says: 'Any approver may skip one run of a series; any approver or its requester may end it.',
    functions: [seriesSkipRule, seriesEndRule],
    enforcer: 'domain',
  },
  series_state: {
    codes: ['already_ended', 'not_live', 'run_created', 'already_skipped', 'no_such_run', 'missing'],
    says: 'A skip lands only on a run of a live series not yet created nor skipped, an end only on a live series; a race with a run’s creation is settled in one script and the loser told which happened.',
    functions: [seriesSkipRule, seriesEndRule],
    enforcer:
      'script: SERIES_SKIP, SERIES_END (store/lua/series-skip.lua, series-end.lua); the read before them in the domain',
  },
} as const satisfies Record<string, RuleEntry>;

export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];
