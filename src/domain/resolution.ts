/**
 * `/resolve R-….1 paid <hash or reference>` and `/resolve R-….1 not-paid <why>` (issue 19
 * "Unknown outcomes a person can resolve"): the words, parsed. Pure; the same for Slack and CLI.
 */
import { APPROVAL_ID, EXECUTION_ID } from './approval.js';

export interface Resolution {
  /** As typed, upper-cased: `R-12.1`, or `R-12` (its only execution). */
  id: string;
  paid: boolean;
  /** paid: the transaction hash or the service's reference; not-paid: why. */
  note: string;
}

// A transaction hash, a payout reference or a beneficiary id: one word, no markup.
const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._:/-]{3,199}$/;
const MAX_WHY = 300;

export type ParsedResolution = { ok: true; resolution: Resolution } | { ok: false; problem: string };

const shorten = (s: string) => (s.length > 24 ? `${s.slice(0, 23)}…` : s);

export function parseResolution(words: readonly string[]): ParsedResolution {
  const [rawId = '', rawVerdict = '', ...rest] = words.map((w) => w.trim()).filter(Boolean);
  const id = rawId.toUpperCase();
  if (!rawId) return { ok: false, problem: 'Name the request to resolve, e.g. R-1234.1.' };
  if (!APPROVAL_ID.test(id) && !EXECUTION_ID.test(id))
    return { ok: false, problem: `"${shorten(rawId)}" is not a request id; use one such as R-1234.1 (or R-1234).` };
  const verdict = rawVerdict.toLowerCase();
  if (verdict !== 'paid' && verdict !== 'not-paid')
    return {
      ok: false,
      problem: rawVerdict
        ? `"${shorten(rawVerdict)}" is neither paid nor not-paid; say which, e.g. \`${id} paid 0x5e…\` or \`${id} not-paid no debit on the wallet\`.`
        : `Say whether ${id} was paid or not-paid, e.g. \`${id} paid 0x5e…\` or \`${id} not-paid no debit on the wallet\`.`,
    };
  if (verdict === 'paid') {
    const ref = rest.join(' ');
    if (!ref)
      return { ok: false, problem: `Add the transaction hash or the service's reference that shows ${id} was paid.` };
    if (rest.length > 1 || !REFERENCE.test(ref))
      return {
        ok: false,
        problem: `"${shorten(ref)}" is not a hash or reference; give it as one word of letters, digits and . _ : / - (4 to 200 characters).`,
      };
    return { ok: true, resolution: { id, paid: true, note: ref } };
  }
  const why = rest.join(' ').replace(/\s+/g, ' ').trim();
  if (why.length < 3)
    return { ok: false, problem: `Say why ${id} was not paid (what you checked); the team reads it.` };
  if (why.length > MAX_WHY) return { ok: false, problem: `Keep the reason under ${MAX_WHY} characters.` };
  return { ok: true, resolution: { id, paid: false, note: why } };
}
