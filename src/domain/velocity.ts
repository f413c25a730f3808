/**
 * Velocity limits: a rolling-window cap on what leaves one wallet in one asset code.
 * Pure: parsing VELOCITY_LIMITS, which rules bind a request, the amount a request counts for
 * and the sentence people read. The store applies them atomically with the approval.
 */
import { type Amount, amountFromNumber, formatAmount, parseAmount } from './amount.js';
import { assetInfo, TOKENS } from './assets.js';
import type { SealedRequest } from './request.js';
import type { WalletAlias } from './wallets.js';

export interface VelocityRule {
  /** Wallet alias, or '*' for each wallet on its own. */
  wallet: string;
  /** Asset code in upper case (USDC, USDT, CNGN). */
  code: string;
  /** Cap in the asset's minor units. */
  limit: bigint;
  decimals: number;
  windowMs: number;
  /** The window as typed, for people: "24 h". */
  windowLabel: string;
  /** As typed, for messages: "ops:USDC=50000/24h". */
  text: string;
}

const CODES: ReadonlyMap<string, { code: string; decimals: number }> = new Map(
  Object.values(TOKENS).map((t) => [t.code.toUpperCase(), t]),
);

/** Sums are done in Lua numbers (doubles): caps stay far below 2^53 minor units. */
const MAX_LIMIT_UNITS = 10n ** 15n;

/**
 * Parses `<alias|*>:<CODE>=<amount>/<window>` rules; every problem is pushed as one sentence.
 * `parseWindow` is the REQUEST_EXPIRY parser, so both settings take the same forms.
 */
export function parseVelocityLimits(
  text: string,
  wallets: readonly WalletAlias[],
  parseWindow: (s: string) => number | undefined,
  problems: string[],
): VelocityRule[] {
  const rules: VelocityRule[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([^:=/\s]+)\s*:\s*([^=\s]+)\s*=\s*([^/\s]+)\s*\/\s*(\S+)$/.exec(part);
    if (!m) {
      problems.push(`VELOCITY_LIMITS "${part}" is not <wallet alias or *>:<ASSET CODE>=<amount>/<window>`);
      continue;
    }
    const [, walletText = '', codeText = '', amountText = '', windowText = ''] = m;
    const wallet = walletText.toLowerCase();
    if (wallet !== '*' && !wallets.some((w) => w.alias === wallet)) {
      problems.push(`VELOCITY_LIMITS "${part}" names wallet "${walletText}", which is not in WALLETS`);
      continue;
    }
    const asset = CODES.get(codeText.toUpperCase());
    if (!asset) {
      problems.push(
        `VELOCITY_LIMITS "${part}" names asset code "${codeText}"; use one of ${[...CODES.keys()].join(', ')}`,
      );
      continue;
    }
    const windowMs = parseWindow(windowText);
    if (windowMs === undefined || windowMs <= 0) {
      problems.push(`VELOCITY_LIMITS "${part}" has window "${windowText}"; write it like 30m, 24h or 7d`);
      continue;
    }
    let amount: Amount;
    try {
      amount = parseAmount(amountText, asset.decimals);
    } catch (err) {
      const why = err instanceof Error ? err.message : 'it is not an amount';
      problems.push(`VELOCITY_LIMITS "${part}": ${why}`);
      continue;
    }
    if (amount.units >= MAX_LIMIT_UNITS) {
      problems.push(`VELOCITY_LIMITS "${part}" is too large; keep each limit under 1,000,000,000 ${asset.code}`);
      continue;
    }
    const code = asset.code.toUpperCase();
    if (rules.some((r) => r.wallet === wallet && r.code === code && r.windowMs === windowMs)) {
      problems.push(`VELOCITY_LIMITS has two rules for ${wallet}:${code} over the same window`);
      continue;
    }
    rules.push({
      wallet,
      code,
      limit: amount.units,
      decimals: asset.decimals,
      windowMs,
      windowLabel: windowLabelOf(windowText),
      text: part,
    });
  }
  return rules;
}

/** A wallet's own rules for a code replace the '*' rules for that code (like TWO_APPROVALS_ABOVE). */
export function rulesFor(rules: readonly VelocityRule[], walletAlias: string, code: string): VelocityRule[] {
  const upper = code.toUpperCase();
  const own = rules.filter((r) => r.wallet === walletAlias && r.code === upper);
  return own.length > 0 ? own : rules.filter((r) => r.wallet === '*' && r.code === upper);
}

/** Where a request's amount is counted: one ledger per wallet id and asset code. */
export interface VelocitySubject {
  walletId: string;
  walletAlias: string;
  code: string;
  decimals: number;
  /** Minor units this request counts for. */
  units: bigint;
}

/**
 * What a transfer or offramp counts for: its amount, or for "entire available balance" (-1,
 * spec 4.2) the available balance it was submitted and approved against.
 */
export function velocitySubject(
  sealed: Pick<SealedRequest, 'call' | 'display' | 'availableUnits'>,
): VelocitySubject | undefined {
  const { call } = sealed;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return undefined;
  const asset = assetInfo(call.body.asset);
  let units: bigint;
  if (call.body.amount === -1) {
    if (sealed.availableUnits === undefined) return undefined;
    units = BigInt(sealed.availableUnits);
  } else {
    units = amountFromNumber(call.body.amount, asset.decimals).units;
  }
  return {
    walletId: call.body.wallet_id,
    walletAlias: sealed.display.walletAlias ?? call.body.wallet_id,
    code: asset.code.toUpperCase(),
    decimals: asset.decimals,
    units,
  };
}

/** Usage of one rule at one moment, in minor units. */
export interface VelocityUsage {
  rule: VelocityRule;
  used: bigint;
}

export const leftOf = (u: VelocityUsage): bigint => (u.rule.limit > u.used ? u.rule.limit - u.used : 0n);

/** Sum of the ledger entries inside the rule's window ending at `now`. */
export function usedInWindow(entries: readonly { at: number; units: bigint }[], windowMs: number, now: number): bigint {
  let used = 0n;
  for (const e of entries) if (e.at > now - windowMs) used += e.units;
  return used;
}

const UNIT_WORDS: Record<string, string> = { ms: 'ms', s: 's', m: 'min', h: 'h', d: 'd' };

/** "24h" → "24 h", "30m" → "30 min": the window as typed, spaced for reading. */
function windowLabelOf(typed: string): string {
  const m = /^(\d+)\s*(ms|s|m|h|d)$/.exec(typed.trim());
  return m ? `${m[1]} ${UNIT_WORDS[m[2] ?? ''] ?? m[2]}` : typed.trim();
}

const fmt = (units: bigint, decimals: number) => formatAmount({ units, decimals });

/** The code as listed (`cNGN`): the subject's is upper-cased only to match rules. */
export const shownCode = (code: string): string => CODES.get(code.toUpperCase())?.code ?? code;

/** "Limit for ops: 50,000.00 USDC per 24 h. 12,400.00 left" — words, not configuration syntax. */
export function headroomSentence(subject: Pick<VelocitySubject, 'walletAlias' | 'code'>, u: VelocityUsage): string {
  const d = u.rule.decimals;
  return `Limit for ${subject.walletAlias}: ${fmt(u.rule.limit, d)} ${shownCode(subject.code)} per ${u.rule.windowLabel}. ${fmt(leftOf(u), d)} left`;
}

/** The card's note: the headroom and what is left once this request counts. */
export function afterSentence(subject: VelocitySubject, u: VelocityUsage): string {
  const left = leftOf(u);
  const after = left > subject.units ? left - subject.units : 0n;
  return `${headroomSentence(subject, u)}; ${fmt(after, u.rule.decimals)} after this.`;
}

/** The first rule this request would break, if any (the caller reads `used` from the ledger). */
export function firstExceeded(usages: readonly VelocityUsage[], units: bigint): VelocityUsage | undefined {
  return usages.find((u) => u.used + units > u.rule.limit);
}

/** The one sentence a refused submission or a held approval shows. */
export function exceededSentence(
  subject: VelocitySubject,
  u: VelocityUsage,
  /** What the amount is: a single request's, or a batch's total. */
  what: 'request' | 'batch' = 'request',
): string {
  const lead = what === 'batch' ? 'The batch total is over a velocity limit.' : 'This is over the limit.';
  const amount = `${what === 'batch' ? 'this batch totals' : 'this request is'} ${fmt(subject.units, subject.decimals)} ${shownCode(subject.code)}`;
  return `${lead} ${headroomSentence(subject, u)}, and ${amount}: ask for at most what is left, or wait for earlier payments to leave the ${u.rule.windowLabel} window.`;
}
