/**
 * The rules a new request is held to, whichever door it came through, each with its stable code.
 * Most wrap the domain function every door already calls (the policy, step-up, key limits);
 * the rest state a check that some doors made inline. Pure.
 */
import type { ApiKey, ApiScope, KeyRefusal } from '../api-key.js';
import { hasScope, keyLimitRefusal, keyState } from '../api-key.js';
import { type OpenCapOutcome, type OpenCaps, openCapOutcome } from '../open-caps.js';
import { evaluatePolicy, type PolicySettings, type PolicySubject } from '../policy.js';
import { needsStepUp, type StepUpSettings, type StepUpSubject } from '../step-up.js';
import { firstExceeded, type VelocityUsage } from '../velocity.js';
import { ALLOW, type RuleOutcome } from './outcome.js';

/** Policy tier and quorum: how many approvals, or a refusal when the policy cannot be applied. */
export function policyRule(
  settings: PolicySettings,
  subject: PolicySubject,
): { ok: true; required: number; rule: string } | { ok: false; code: 'policy_refused'; reason: string } {
  const d = evaluatePolicy(settings, subject);
  return d.ok ? d : { ok: false, code: 'policy_refused', reason: d.reason };
}

/** Step-up: every counted vote needs the approver's passkey (the request is sealed with the flag). */
export const stepUpRule = (settings: StepUpSettings, subject: StepUpSubject): RuleOutcome<'step_up_required'> =>
  needsStepUp(settings, subject) ? { ok: false, code: 'step_up_required' } : ALLOW;

/**
 * New destination through an API key: a key made without --allow-new-destinations may pay only
 * destinations Rampart paid before (`known`, by destination key: domain/destination-key.ts).
 */
export function newDestinationRule(
  limits: Pick<ApiKey['limits'], 'allowNewDestinations'>,
  known: boolean,
): RuleOutcome<'new_destination_not_allowed'> {
  return !known && !limits.allowNewDestinations ? { ok: false, code: 'new_destination_not_allowed' } : ALLOW;
}

/** Velocity: the first rolling-window limit this amount would break. */
export function velocityRule(
  usages: readonly VelocityUsage[],
  units: bigint,
): RuleOutcome<'over_limit', { usage: VelocityUsage }> {
  const over = firstExceeded(usages, units);
  return over ? { ok: false, code: 'over_limit', usage: over } : ALLOW;
}

/** Open-request caps per person and per key (counted and claimed by the create script). */
export const openCapRule = (
  open: { requester: number; apiKey?: number },
  caps: OpenCaps,
  keyName = '',
): OpenCapOutcome => openCapOutcome(open, caps, keyName);

/** Key scopes: a key acts only within its scopes and while it is neither revoked nor expired. */
export function keyScopeRule(
  key: ApiKey,
  scope: ApiScope,
  now: number,
): RuleOutcome<'key_not_active' | 'missing_scope'> {
  if (keyState(key, now) !== 'active') return { ok: false, code: 'key_not_active' };
  return hasScope(key, scope) ? ALLOW : { ok: false, code: 'missing_scope' };
}

/** Key limits: wallets, assets and the most one request may ask for. */
export function keyLimitRule(
  key: ApiKey,
  r: { wallet: string; asset: string; amount: string },
): RuleOutcome<KeyRefusal['code'], Omit<KeyRefusal, 'code'>> {
  const refusal = keyLimitRefusal(key, r);
  return refusal ? { ok: false, ...refusal } : ALLOW;
}

/** Batch limits: at most BATCH_MAX_ROWS payments in one batch, whether a file or JSON rows. */
export const batchRowsRule = (rows: number, maxRows: number): RuleOutcome<'batch_too_large'> =>
  rows > maxRows ? { ok: false, code: 'batch_too_large' } : ALLOW;
