/** What the passkey use cases need, beside the approve use case's own ports. */
import type { PasskeyCard, PasskeyCardDecision } from '../domain/passkey.js';
import type { Passkey, PasskeyStore } from '../store/passkeys.js';
import type { StepUpTokens } from '../store/step-up-tokens.js';
import type { AppDeps } from './deps.js';
import type { ConfirmNotPaid } from './step-up-confirm.js';

/** One step-up or enrolment attempt, for the audit trail and the metric. */
export interface StepUpAttempt {
  purpose: 'approve' | 'enrol' | 'enrol-approve' | 'remove' | 'resume' | 'confirm-not-paid';
  /** ok, or why not: invalid, limited, changed, no-passkey, failed, counter… */
  outcome: string;
  user?: string;
  requestId?: string;
}

export type StepUpDeps = Pick<
  AppDeps,
  'store' | 'queues' | 'approvers' | 'log' | 'now' | 'controls' | 'config' | 'registry'
> & {
  passkeys: PasskeyStore;
  stepUpTokens: StepUpTokens;
  /** The owner's direct messages and the approval card (Slack); absent: none sent. */
  notices?: PasskeyNotices;
  /** Counted in a metric by the composition root; logged here either way. */
  onAttempt?: (attempt: StepUpAttempt) => void;
  /** Display names for the page (the card's mentions); absent, or unknown to Slack: the user id. */
  people?: PeopleNames;
  /** The not-paid confirmation, handed a verified passkey; absent: the use case (app/confirm-not-paid.ts). */
  confirmNotPaid?: ConfirmNotPaid;
};

/** Who a Slack user id is, as Slack shows them in a mention. */
export interface PeopleNames {
  /** Names of the ids Slack knows; an id it could not name is left out. Never throws. */
  names(ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** Origin and RP ID the browser must have used: from the configuration only, never the request. */
export function relyingParty(config: StepUpDeps['config']): { origin: string; rpId: string; base: string } {
  const { publicUrl, rpId } = config.stepUp;
  if (!publicUrl || !rpId) throw new Error('PUBLIC_URL is not configured; the passkey pages are off');
  return { origin: new URL(publicUrl).origin, rpId, base: publicUrl };
}

export const STEP_UP_TOKEN_MS = 5 * 60_000;
export const ENROL_TOKEN_MS = 10 * 60_000;

/** Logs the attempt and tells the metric; a failing listener never changes the answer. */
export function recordAttempt(deps: Pick<StepUpDeps, 'log' | 'onAttempt'>, attempt: StepUpAttempt): void {
  deps.log.info({ ...attempt }, 'passkey attempt');
  try {
    deps.onAttempt?.(attempt);
  } catch (err) {
    deps.log.warn({ err }, 'could not count a passkey attempt');
  }
}

/**
 * What people are told about passkeys: the owner gets a direct message
 * for every passkey requested, added or removed; a pending one gets an approval card. A failed
 * notice is logged by its implementation and never changes the outcome.
 */
export interface PasskeyNotices {
  /** The owner's message and the approval card; where the card went, when it was posted. */
  requested(passkey: Passkey): Promise<PasskeyCard | undefined>;
  added(passkey: Passkey): Promise<void>;
  /** `by`: the owner (with another passkey) or 'cli'. True when the owner's message was sent. */
  removed(user: string, removed: readonly Passkey[], by: string): Promise<boolean>;
  /** Redraws a pending passkey's approval card once decided: no button, who decided. */
  decided(passkey: Passkey, card: PasskeyCard, decision: PasskeyCardDecision): Promise<void>;
  /**
   * Replaces the private link message (at the response URL its click gave) once its link was
   * used. Optional: the CLI's notices have no Slack message to replace.
   */
  linkUsed?(responseUrl: string, subject: string): Promise<void>;
}

/**
 * Attempts per client address, counted before the link is even looked up (so
 * guessed links count too). `from` is known only behind a named proxy (TRUST_PROXY); undefined:
 * no per-address limit. The address itself is never logged.
 */
export async function addressAllows(
  deps: Pick<StepUpDeps, 'stepUpTokens' | 'log' | 'onAttempt'>,
  purpose: StepUpAttempt['purpose'],
  from: string | undefined,
): Promise<boolean> {
  if (from === undefined || (await deps.stepUpTokens.attemptFrom(from))) return true;
  recordAttempt(deps, { purpose, outcome: 'address-limit' });
  return false;
}
