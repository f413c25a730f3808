/**
 * Registering beneficiaries that already exist at the service, in one use case that
 * the Slack form and `rampart beneficiaries import` both call — check every row, then seal one
 * approval-gated request for all of them. Each edge phrases the outcome and announces the card
 * (Slack after its ack, the CLI at once).
 */
import type { Actor } from '../domain/actor.js';
import type { SealedRequest } from '../domain/request.js';
import { needsStepUp } from '../domain/step-up.js';
import type { AppDeps } from './deps.js';
import { type NewRequest, type Submitted, sealRequest } from './post-request.js';
import {
  checkRegistration,
  type RegisterDeps,
  type RegistrationCheck,
  type StatedRow,
} from './register-beneficiaries.js';
import type { SubmitBudget } from './submit-budget.js';

export type SubmitRegistrationDeps = RegisterDeps & Pick<AppDeps, 'store' | 'config' | 'log' | 'now'>;

export interface RegistrationInput {
  rows: readonly StatedRow[];
  /** Who asks to add these destinations (the request's requester), and through which door. */
  actor: Actor;
  reason: string;
  /** The channel the form was opened from; none for a file. */
  origin: string | undefined;
  /** One form (its view id) or one file for one requester and reason makes at most one request. */
  submission: string;
  /** The imported file's name, shown on the card. */
  importFile?: string;
  /** Slack's 3 s: the identity checks and the create carry deadlines; the CLI waits. */
  identityDeadlineMs?: number;
  budget?: SubmitBudget;
}

export type RegistrationOutcome =
  | Exclude<RegistrationCheck, { kind: 'ready' }>
  | Exclude<Submitted, { kind: 'created' | 'refused' }>
  /** The requester has too many open requests: the rows were good. */
  | { kind: 'refused'; reason: string; requesterLimit: true }
  | {
      kind: 'created';
      sealed: SealedRequest;
      call: Extract<RegistrationCheck, { kind: 'ready' }>['call'];
    };

export async function submitRegistration(
  deps: SubmitRegistrationDeps,
  input: RegistrationInput,
): Promise<RegistrationOutcome> {
  const checked = await checkRegistration(deps, input.rows, input.actor.user, input.identityDeadlineMs);
  if (checked.kind !== 'ready') return checked;
  const request: NewRequest = {
    call: checked.call,
    display: input.importFile === undefined ? checked.display : { ...checked.display, importFile: input.importFile },
    requester: input.actor.user,
    reason: input.reason,
    origin: input.origin,
    required: checked.required,
    rule: checked.rule,
    // Registering a payout destination asks what adding one asks (STEP_UP_NEW_DESTINATION).
    stepUp: needsStepUp(deps.config.stepUp, { kind: 'register-beneficiary' }),
    submission: input.submission,
  };
  const submitted = await sealRequest(deps, request, input.budget);
  if (submitted.kind === 'refused') return { ...submitted, requesterLimit: true };
  if (submitted.kind !== 'created') return submitted;
  return { kind: 'created', sealed: submitted.sealed, call: checked.call };
}
