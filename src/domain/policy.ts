/**
 * Approval policy: how many approvals a request needs, and why. Pure. Anything the policy
 * cannot evaluate is refused (default-deny), never waved through on one approval.
 */
import { type Amount, amountToString, parseAmount } from './amount.js';

export interface PolicySettings {
  approvalsRequired: number;
  /** Asset code (upper case) → threshold; '*' applies to every code. */
  twoApprovalsAbove: Record<string, string> | undefined;
}

export type PolicyDecision = { ok: true; required: number; rule: string } | { ok: false; reason: string };

export interface PolicySubject {
  kind: 'transfer' | 'offramp' | 'beneficiary';
  assetCode?: string;
  /** undefined for "entire available balance". */
  amount?: Amount;
}

const plural = (n: number) => `${n} approval${n === 1 ? '' : 's'}`;

export function evaluatePolicy(settings: PolicySettings, subject: PolicySubject): PolicyDecision {
  const base = Math.max(1, settings.approvalsRequired);
  if (subject.kind === 'beneficiary')
    return { ok: true, required: base, rule: `${plural(base)}: new payout destination` };
  const thresholds = settings.twoApprovalsAbove;
  if (!thresholds) return { ok: true, required: base, rule: `${plural(base)}: default policy` };
  const moving = subject.amount;
  if (!subject.assetCode) return { ok: false, reason: 'the asset is not known, so the policy cannot be applied' };
  // spec 4.2: -1 moves whatever is available at execution time, which may exceed what the
  // approvers saw; such a request always takes the stricter rule.
  if (!moving) {
    const required = Math.max(base, 2);
    return { ok: true, required, rule: `${plural(required)}: entire available balance (amount not fixed)` };
  }
  const thresholdText = thresholds[subject.assetCode.toUpperCase()] ?? thresholds['*'];
  if (thresholdText === undefined) {
    return {
      ok: false,
      reason: `the approval policy has no threshold for ${subject.assetCode}; ask an admin to add it to TWO_APPROVALS_ABOVE`,
    };
  }
  const threshold = parseAmount(thresholdText, moving.decimals);
  if (moving.units > threshold.units) {
    const required = Math.max(base, 2);
    return {
      ok: true,
      required,
      rule: `${plural(required)}: amount over ${Number(amountToString(threshold)).toLocaleString('en-US')} ${subject.assetCode}`,
    };
  }
  return {
    ok: true,
    required: base,
    rule: `${plural(base)}: amount up to ${Number(amountToString(threshold)).toLocaleString('en-US')} ${subject.assetCode}`,
  };
}
