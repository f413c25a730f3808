/**
 * Approval policy: how many approvals a request needs, and why. Pure. Anything the policy
 * cannot evaluate is refused (default-deny), never waved through on one approval.
 */
import { type Amount, amountToString } from './amount.js';
import { TOKENS } from './assets.js';
import { plural } from './words.js';

export interface PolicySettings {
  approvalsRequired: number;
  /** Asset code (upper case) → threshold; '*' applies to every code. */
  twoApprovalsAbove: Record<string, string> | undefined;
}

export type PolicyDecision = { ok: true; required: number; rule: string } | { ok: false; reason: string };

export interface PolicySubject {
  kind: 'transfer' | 'offramp' | 'beneficiary' | 'register-beneficiary' | 'address-book';
  assetCode?: string;
  /** The exact amount; money-moving requests without one are refused. */
  amount?: Amount;
}

const THRESHOLD = /^(\d+)(?:\.(\d+))?$/;
const MAX_SIGNIFICANT_DIGITS = 15;

/** Asset codes a threshold may name (upper case, as TWO_APPROVALS_ABOVE is read), with decimals. */
const CODE_DECIMALS: ReadonlyMap<string, number> = new Map(
  Object.values(TOKENS).map((t) => [t.code.toUpperCase(), t.decimals]),
);

/**
 * A threshold in base units, or why it cannot be one. Zero is allowed and means "two approvals
 * for every amount" (README "Configuration"); more decimals than the asset has are refused
 * rather than rounded, since rounding would move the line the admin drew.
 */
export function parseThreshold(text: string, decimals: number): Amount | string {
  const m = THRESHOLD.exec(text.trim());
  if (!m) return `"${text}" is not a number such as 10000 or 2500.50`;
  const whole = m[1] ?? '0';
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals)
    return `${text} has ${fraction.length} decimal places; the asset has only ${decimals}`;
  const units = BigInt(whole + fraction.padEnd(decimals, '0'));
  if (units.toString().length - decimals > MAX_SIGNIFICANT_DIGITS)
    return `${text} is larger than any amount Rampart can send`;
  return { units, decimals };
}

/** Every reason TWO_APPROVALS_ABOVE cannot be applied, one sentence each; empty when it can. */
export function thresholdProblems(thresholds: Record<string, string>): string[] {
  const problems: string[] = [];
  const known = [...CODE_DECIMALS.keys()];
  for (const [code, text] of Object.entries(thresholds)) {
    const decimals = code === '*' ? Math.min(...CODE_DECIMALS.values()) : CODE_DECIMALS.get(code);
    if (decimals === undefined) {
      problems.push(`names ${code}, which is not an asset code Rampart knows (use ${known.join(', ')})`);
      continue;
    }
    const parsed = parseThreshold(text, decimals);
    if (typeof parsed === 'string') problems.push(`${code === '*' ? '' : `${code}: `}${parsed}`);
  }
  return problems;
}

const approvals = (n: number) => plural(n, 'approval');

export function evaluatePolicy(settings: PolicySettings, subject: PolicySubject): PolicyDecision {
  const base = Math.max(1, settings.approvalsRequired);
  if (subject.kind === 'beneficiary')
    return { ok: true, required: base, rule: `${approvals(base)}: new payout destination` };
  if (subject.kind === 'register-beneficiary')
    return { ok: true, required: base, rule: `${approvals(base)}: payout destinations as stated` };
  // An address-book entry lets money go somewhere later without a new destination's checks: the
  // top tier's quorum (two when TWO_APPROVALS_ABOVE draws a line), never less.
  if (subject.kind === 'address-book') {
    const required = settings.twoApprovalsAbove ? Math.max(base, 2) : base;
    return { ok: true, required, rule: `${approvals(required)}: address-book entry` };
  }
  const moving = subject.amount;
  // Every money-moving request is sealed with an exact amount ("entire balance"
  // included) before the policy runs; an amount that is not fixed is never approvable.
  if (!moving) return { ok: false, reason: 'the amount is not fixed; request an exact amount' };
  const thresholds = settings.twoApprovalsAbove;
  if (!thresholds) return { ok: true, required: base, rule: `${approvals(base)}: default policy` };
  if (!subject.assetCode) return { ok: false, reason: 'the asset is not known, so the policy cannot be applied' };
  const thresholdText = thresholds[subject.assetCode.toUpperCase()] ?? thresholds['*'];
  if (thresholdText === undefined) {
    return {
      ok: false,
      reason: `the approval policy has no threshold for ${subject.assetCode}; ask an admin to add it to TWO_APPROVALS_ABOVE`,
    };
  }
  const threshold = parseThreshold(thresholdText, moving.decimals);
  // Config refuses such a threshold at start-up (thresholdProblems); still never wave it through.
  if (typeof threshold === 'string')
    return { ok: false, reason: `the approval policy's threshold for ${subject.assetCode} is unusable: ${threshold}` };
  if (moving.units > threshold.units) {
    const required = Math.max(base, 2);
    const over =
      threshold.units === 0n
        ? `every ${subject.assetCode} amount (threshold 0)`
        : `amount over ${Number(amountToString(threshold)).toLocaleString('en-US')} ${subject.assetCode}`;
    return { ok: true, required, rule: `${approvals(required)}: ${over}` };
  }
  return {
    ok: true,
    required: base,
    rule: `${approvals(base)}: amount up to ${Number(amountToString(threshold)).toLocaleString('en-US')} ${subject.assetCode}`,
  };
}
