/**
 * Reads the free text after /transfer and /offramp to pre-fill the modal, e.g.
 * `250 base:usdc to 0xAbC… from ops for vendor invoice 118`. Nothing here is trusted: the
 * modal shows what was understood and validates it on submit.
 */
export interface Prefill {
  amount?: string | undefined;
  entireBalance?: boolean | undefined;
  asset?: string | undefined;
  receiver?: string | undefined;
  wallet?: string | undefined;
  beneficiary?: string | undefined;
  reason?: string | undefined;
}

// Anything that looks like a number, separators and all: kept as typed, never rewritten, so the
// modal's amount check (domain/amount.ts) refuses "12,50" instead of reading 1,250.
const AMOUNT = /^\d[\d,._]*$/;
const ASSET = /^[a-z]+:[a-z]+$/i;
/**
 * Longest pre-fill per field: the longest address (Solana, 44) or alias with room to spare, and
 * the reason's own limit, so long command text cannot break the modal.
 */
export const PREFILL_LIMITS = { amount: 40, asset: 40, receiver: 100, wallet: 64, reason: 500 } as const;

export function parseRequestText(text: string): Prefill {
  const out: Prefill = {};
  const forAt = text.search(/(^|\s)for\s/i);
  let head = text;
  if (forAt >= 0) {
    const reason = text
      .slice(forAt)
      .replace(/^\s*for\s+/i, '')
      .trim();
    if (reason) out.reason = reason.slice(0, PREFILL_LIMITS.reason);
    head = text.slice(0, forAt);
  }
  const words = head.trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const next = words[i + 1];
    const lower = word.toLowerCase();
    if ((lower === 'to' || lower === 'from') && next !== undefined) {
      if (lower === 'to') out.receiver = next.slice(0, PREFILL_LIMITS.receiver);
      else out.wallet = next.toLowerCase().slice(0, PREFILL_LIMITS.wallet);
      i++;
    } else if (out.amount === undefined && !out.entireBalance && AMOUNT.test(word)) {
      out.amount = word.slice(0, PREFILL_LIMITS.amount);
    } else if (out.amount === undefined && !out.entireBalance && /^(all|max|entire)$/i.test(word)) {
      out.entireBalance = true;
    } else if (out.asset === undefined && ASSET.test(word)) {
      out.asset = lower.slice(0, PREFILL_LIMITS.asset);
    }
  }
  return out;
}
