/**
 * Reads the free text after /transfer and /offramp to pre-fill the modal, e.g.
 * `250 base:usdc to 0xAbC… from ops for vendor invoice 118`. Nothing here is trusted: the
 * modal shows what was understood and validates it on submit.
 */
export interface Prefill {
  amount?: string;
  entireBalance?: boolean;
  asset?: string;
  receiver?: string;
  wallet?: string;
  beneficiary?: string;
  reason?: string;
}

// Anything that looks like a number, separators and all: kept as typed, never rewritten, so the
// modal's amount check (domain/amount.ts) refuses "12,50" instead of reading 1,250 (issue 9 item 7).
const AMOUNT = /^\d[\d,._]*$/;
const ASSET = /^[a-z]+:[a-z]+$/i;

export function parseRequestText(text: string): Prefill {
  const out: Prefill = {};
  const forAt = text.search(/(^|\s)for\s/i);
  let head = text;
  if (forAt >= 0) {
    const reason = text
      .slice(forAt)
      .replace(/^\s*for\s+/i, '')
      .trim();
    if (reason) out.reason = reason.slice(0, 500);
    head = text.slice(0, forAt);
  }
  const words = head.trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const next = words[i + 1];
    const lower = word.toLowerCase();
    if ((lower === 'to' || lower === 'from') && next !== undefined) {
      if (lower === 'to') out.receiver = next;
      else out.wallet = next.toLowerCase();
      i++;
    } else if (out.amount === undefined && !out.entireBalance && AMOUNT.test(word)) {
      out.amount = word;
    } else if (out.amount === undefined && !out.entireBalance && /^(all|max|entire)$/i.test(word)) {
      out.entireBalance = true;
    } else if (out.asset === undefined && ASSET.test(word)) {
      out.asset = lower;
    }
  }
  return out;
}
