/**
 * The rules a series is held to. At submission every amount rule judges the series' total (the
 * most it can send), through the same functions a single request uses; the vote reserves no
 * velocity but checks that one run fits each limit. Before each run, today's rules are compared
 * with what the series got: anything stricter skips the run and pauses the series. Pure.
 */

import { amountFromNumber, amountToString, formatAmount } from '../amount.js';
import { type ApiKey, type KeyRefusal, keyLimitRefusal } from '../api-key.js';
import type { PolicySettings } from '../policy.js';
import { seriesTotal } from '../series.js';
import type { StepUpSettings } from '../step-up.js';
import type { VelocityUsage } from '../velocity.js';
import type { RuleOutcome } from './outcome.js';
import { keyLimitRule, keyScopeRule, policyRule, stepUpRule, velocityRule } from './submissions.js';

export interface SeriesSubject {
  kind: 'transfer' | 'offramp';
  wallet: string;
  /** The asset id (as a key's limits name it) and its code (as the thresholds name it). */
  asset: string;
  assetCode: string;
  perRun: { units: bigint; decimals: number };
  runs: number;
  newDestination: boolean;
}

const total = (s: SeriesSubject) => seriesTotal(s.perRun, s.runs);

/** Policy tier and quorum on the total. */
export const seriesPolicyRule = (settings: PolicySettings, s: SeriesSubject) =>
  policyRule(settings, { kind: s.kind, assetCode: s.assetCode, amount: total(s) });

/** Step-up on the total (the passkey then signs with purpose `series`). */
export const seriesStepUpRule = (settings: StepUpSettings, s: SeriesSubject) =>
  stepUpRule(settings, { kind: s.kind, assetCode: s.assetCode, amount: total(s), newDestination: s.newDestination });

/** An API key: the `schedules:create` scope, then its limits with the total as the amount. */
export function seriesKeyRule(key: ApiKey, s: SeriesSubject, now: number) {
  const scope = keyScopeRule(key, 'schedules:create', now);
  if (!scope.ok) return scope;
  return keyLimitRule(key, { wallet: s.wallet, asset: s.asset, amount: amountToString(total(s)) });
}

/** Why an API key may not create a series, with the field it belongs on (none: the key itself). */
export interface SeriesKeyRefusal {
  code: 'missing_scope' | 'key_not_active' | KeyRefusal['code'];
  field?: KeyRefusal['field'];
  message: string;
}

/**
 * An API key's refusal of a series in one sentence: the scope it lacks, or its --max-amount
 * compared with the series' total (what a key lets through is what the series can send).
 */
export function seriesKeyRefusal(key: ApiKey, s: SeriesSubject, now: number): SeriesKeyRefusal | undefined {
  const scope = keyScopeRule(key, 'schedules:create', now);
  if (!scope.ok && scope.code === 'missing_scope')
    return {
      code: scope.code,
      message: `API key ${key.name} may not create a series: it needs the schedules:create scope; ask its owner for a key with it.`,
    };
  if (!scope.ok) return { code: scope.code, message: `API key ${key.name} is not active; use an active key.` };
  const limit = keyLimitRefusal(key, { wallet: s.wallet, asset: s.asset, amount: amountToString(total(s)) });
  if (limit?.code === 'amount_over_key_limit')
    return {
      ...limit,
      message: `API key ${key.name} may request at most ${key.limits.maxAmount} per request, and a series is judged on its total (${s.runs} runs, ${amountToString(total(s))} in all); make fewer runs or ask an approver to request it in Slack.`,
    };
  return limit;
}

/** The vote reserves nothing: it refuses only a run that no window could ever hold. */
export const seriesVelocityRule = (usages: readonly VelocityUsage[], perRunUnits: bigint) =>
  velocityRule(
    usages.map((u) => ({ ...u, used: 0n })),
    perRunUnits,
  );

/** What the series was approved under, and what today's rules would ask of it. */
export interface RunTerms {
  required: number;
  stepUp: boolean;
  delayed: boolean;
}

export type RunRecheckCode =
  | 'more_approvals'
  | 'passkey_needed'
  | 'delay_needed'
  | 'key_limit'
  | 'requester_not_eligible'
  | 'no_approver_eligible';

/**
 * Whether run k may be created under today's rules. A refusal skips the run and pauses the
 * series: it needs a fresh approval, never a silent retry.
 */
export function runRecheckRule(
  approved: RunTerms,
  today: RunTerms & { keyAllows: boolean },
  people: { requesterEligible: boolean; approversEligible: readonly boolean[] },
): RuleOutcome<RunRecheckCode> {
  if (today.required > approved.required) return { ok: false, code: 'more_approvals' };
  if (today.stepUp && !approved.stepUp) return { ok: false, code: 'passkey_needed' };
  if (today.delayed && !approved.delayed) return { ok: false, code: 'delay_needed' };
  if (!today.keyAllows) return { ok: false, code: 'key_limit' };
  if (!people.requesterEligible) return { ok: false, code: 'requester_not_eligible' };
  if (!people.approversEligible.some(Boolean)) return { ok: false, code: 'no_approver_eligible' };
  return { ok: true };
}

/**
 * Whether the wallet covers one run, as a fresh request's check reads it (domain/wallet-check.ts):
 * the asset's available balance, read just before the run is created. The sentence is the
 * reason the run is skipped, said in the series' thread; nothing is sent for it.
 */
export function runFundsRule(
  s: Pick<SeriesSubject, 'wallet' | 'asset' | 'assetCode' | 'perRun'>,
  balances: readonly { id: string; available: number }[],
): RuleOutcome<'run_unfunded', { message: string }> {
  const entry = balances.find((b) => b.id === s.asset);
  const available = amountFromNumber(entry?.available ?? 0, s.perRun.decimals);
  if (available.units >= s.perRun.units) return { ok: true };
  return {
    ok: false,
    code: 'run_unfunded',
    message: `wallet ${s.wallet} has ${formatAmount(available)} ${s.assetCode} available, less than the run's ${formatAmount(s.perRun)} ${s.assetCode}; nothing was sent for this run`,
  };
}
