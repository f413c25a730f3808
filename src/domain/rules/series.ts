/**
 * The rules a series is held to. At submission every amount rule judges the series' total (the
 * most it can send), through the same functions a single request uses; the vote reserves no
 * velocity (each run reserves its own when series-run.lua creates it). Before each run, today's
 * rules are compared with what the series got: anything stricter skips the run and pauses the
 * series. Pure.
 */

import { amountFromNumber, amountToString, formatAmount } from '../amount.js';
import { type ApiKey, type KeyRefusal, keyLimitRefusal, keyState } from '../api-key.js';
import { availableAfterCommitments, type Commitment } from '../commitments.js';
import type { PolicySettings } from '../policy.js';
import { seriesTotal } from '../series.js';
import type { StepUpSettings } from '../step-up.js';
import type { RuleOutcome } from './outcome.js';
import { keyScopeRule, policyRule, stepUpRule } from './submissions.js';

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

/** Why an API key may not create a series, with the field it belongs on (none: the key itself). */
export interface SeriesKeyRefusal {
  code: 'missing_scope' | 'key_not_active' | KeyRefusal['code'];
  field?: KeyRefusal['field'];
  message: string;
}

/**
 * An API key and a series: the `schedules:create` scope, then its limits with the series' total
 * as the amount (what a key lets through is what the series can send), each refusal in one
 * sentence. A series without an exact amount per run (`perRun` undefined: "entire balance") has
 * no total, so a key with --max-amount refuses it here rather than let it through as 0.
 */
export function seriesKeyRefusal(
  key: ApiKey,
  s: Omit<SeriesSubject, 'perRun'> & { perRun: SeriesSubject['perRun'] | undefined },
  now: number,
): SeriesKeyRefusal | undefined {
  const scope = keyScopeRule(key, 'schedules:create', now);
  if (!scope.ok && scope.code === 'missing_scope')
    return {
      code: scope.code,
      message: `API key ${key.name} may not create a series: it needs the schedules:create scope; ask its owner for a key with it.`,
    };
  if (!scope.ok) return { code: scope.code, message: `API key ${key.name} is not active; use an active key.` };
  const { perRun } = s;
  if (!perRun && key.limits.maxAmount !== undefined)
    return {
      code: 'amount_over_key_limit',
      field: 'amount',
      message: `API key ${key.name} may request at most ${key.limits.maxAmount} per request, and a series is judged on its total, which "entire balance" does not have; send an exact amount per run.`,
    };
  const all = perRun ? amountToString(seriesTotal(perRun, s.runs)) : '';
  const limit = keyLimitRefusal(key, { wallet: s.wallet, asset: s.asset, amount: all });
  if (limit?.code === 'amount_over_key_limit')
    return {
      ...limit,
      message: `API key ${key.name} may request at most ${key.limits.maxAmount} per request, and a series is judged on its total (${s.runs} runs, ${all} in all); make fewer runs or ask an approver to request it in Slack.`,
    };
  return limit;
}

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
 * An API key that made a series, read again before each run as a fresh request would be judged:
 * gone, revoked or expired, without the schedules:create scope, or with limits (wallets, assets,
 * --max-amount) the series' total no longer fits. The sentence names what changed.
 */
export function runKeyRule(
  keyName: string,
  key: ApiKey | undefined,
  s: SeriesSubject,
  now: number,
): RuleOutcome<'key_limit', { message: string }> {
  const refuse = (what: string) => ({
    ok: false as const,
    code: 'key_limit' as const,
    message: `API key ${keyName}${what.startsWith("'") ? '' : ' '}${what}`,
  });
  if (!key) return refuse('no longer exists');
  const state = keyState(key, now);
  if (state === 'revoked') return refuse('was revoked');
  if (state === 'expired') return refuse('has expired');
  if (!keyScopeRule(key, 'schedules:create', now).ok) return refuse('no longer has the schedules:create scope');
  const limit = keyLimitRefusal(key, { wallet: s.wallet, asset: s.asset, amount: amountToString(total(s)) });
  if (!limit) return { ok: true };
  switch (limit.code) {
    case 'amount_over_key_limit':
      return refuse(`'s --max-amount is now ${grouped(key.limits.maxAmount ?? '')}`);
    case 'wallet_not_allowed':
      return refuse(`no longer covers wallet ${s.wallet}`);
    case 'asset_not_allowed':
      return refuse(`no longer covers ${s.asset}`);
    default:
      return refuse('has a stored limit Rampart cannot read');
  }
}

/** "1000" as people read it: "1,000" (the decimals as written). */
function grouped(text: string): string {
  const [whole = '', fraction] = text.trim().split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/** What the sentence of a refused run names beside its code. */
export interface RecheckFacts {
  /** The policy as it stands (TWO_APPROVALS_ABOVE, APPROVALS_REQUIRED) and the series' asset code. */
  policy: PolicySettings;
  assetCode: string;
  /** Approvals today's policy asks (Infinity: it refuses the series). */
  required: number;
  /** The API key's sentence (runKeyRule) when the key refused. */
  key?: string;
  requester: string;
}

/**
 * The one sentence a refused run is skipped with, said in the series' thread: what changed, so
 * the requester knows it needs a fresh approval ("needs a fresh approval: TWO_APPROVALS_ABOVE is
 * now 1,000 USDC").
 */
export function runRecheckSentence(code: RunRecheckCode, f: RecheckFacts): string {
  return `needs a fresh approval: ${changed(code, f)}`;
}

function changed(code: RunRecheckCode, f: RecheckFacts): string {
  switch (code) {
    case 'more_approvals': {
      if (!Number.isFinite(f.required)) return `the approval policy no longer allows ${f.assetCode} at this total`;
      if (f.policy.approvalsRequired >= f.required) return `APPROVALS_REQUIRED is now ${f.policy.approvalsRequired}`;
      const t = f.policy.twoApprovalsAbove?.[f.assetCode.toUpperCase()] ?? f.policy.twoApprovalsAbove?.['*'] ?? '';
      return `TWO_APPROVALS_ABOVE is now ${grouped(t)} ${f.assetCode}`;
    }
    case 'passkey_needed':
      return 'STEP_UP_ABOVE now asks a passkey for its total';
    case 'delay_needed':
      return 'DELAY_ABOVE now asks a cancel window for its total';
    case 'key_limit':
      return f.key ?? 'its API key no longer allows it';
    case 'requester_not_eligible':
      return `its requester <@${f.requester}> is no longer an active member of the workspace`;
    case 'no_approver_eligible':
      return 'no one who approved it is still an approver';
  }
}

/**
 * Why a run is skipped and its series paused: today's rules refused it (RunRecheckCode), or
 * Rampart could not judge it at all (`not_checkable`: its sealed call is not a transfer or an
 * offramp in an asset Rampart knows, so no amount rule can read it).
 */
export type RunPauseCode = RunRecheckCode | 'not_checkable';

/** A run refused: its code (the series' pause) and its sentence (its thread). */
export interface RunRefusal {
  code: RunPauseCode;
  why: string;
}

/** The run that cannot be judged, in its one sentence: paused, never sent unchecked. */
export const notCheckableRefusal = (): RunRefusal => ({
  code: 'not_checkable',
  why: "could not be checked against today's rules: Rampart cannot read one run's asset and amount from its sealed call, so nothing was sent; end this series and request it again",
});

/**
 * Whether the wallet covers one run, as a fresh request's check reads it (domain/wallet-check.ts)
 * less what approved payments not yet sent already commit from it (domain/commitments.ts): the
 * asset's available balance, read just before the run is created. The sentence is the reason the
 * run is skipped, said in the series' thread; nothing is sent for it.
 */
export function runFundsRule(
  s: Pick<SeriesSubject, 'wallet' | 'asset' | 'assetCode' | 'perRun'>,
  balances: readonly { id: string; available: number }[],
  committed: readonly Commitment[] = [],
): RuleOutcome<'run_unfunded', { message: string }> {
  const entry = balances.find((b) => b.id === s.asset);
  const available = amountFromNumber(entry?.available ?? 0, s.perRun.decimals);
  const left = availableAfterCommitments(available.units, s.perRun.units, committed);
  if (left >= 0n) return { ok: true };
  const promised = committed.reduce((sum, c) => sum + c.units, 0n);
  const dec = s.perRun.decimals;
  const promisedText =
    promised > 0n
      ? ` and ${formatAmount({ units: promised, decimals: dec })} ${s.assetCode} of it committed to approved payments not yet sent (${committed.map((c) => c.id).join(', ')}), leaving`
      : ',';
  return {
    ok: false,
    code: 'run_unfunded',
    message: `wallet ${s.wallet} has ${formatAmount(available)} ${s.assetCode} available${promisedText} less than the run's ${formatAmount(s.perRun)} ${s.assetCode}; nothing was sent for this run`,
  };
}
