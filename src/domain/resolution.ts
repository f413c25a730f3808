/**
 * `/resolve R-….1 paid <hash or reference>` and `/resolve R-….1 not-paid <why>`: the words,
 * parsed. Pure; the same for Slack and CLI. An outcome is recorded on one execution, named in
 * full (`R-12.1`, `B-7.3`): a bare `R-12` only opens the Slack form, never takes effect, so a
 * typo cannot close the wrong payment.
 */
import { APPROVAL_ID, EXECUTION_ID } from './approval.js';

export interface Resolution {
  /** The execution as typed, upper-cased: `R-12.1`, `B-7.3`, or a batch's row `B-7 row 4` (app/resolve.ts reads which). */
  id: string;
  /** paid: records it as succeeded; not paid: only proposes it (a second approver confirms). */
  paid: boolean;
  /** paid: the transaction hash or the service's reference; not-paid: why. */
  note: string;
}

// A payout reference or a beneficiary id: one word, no markup (the service returns a plain string, spec 4.4).
const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._:/-]{3,199}$/;
export const MAX_WHY = 300;

export type ParsedResolution = { ok: true; resolution: Resolution } | { ok: false; problem: string };

export const shorten = (s: string): string => (s.length > 24 ? `${s.slice(0, 23)}…` : s);

/** A batch's row as people name it: `B-1003 row 2` (the row of its file, as the card shows it). */
export const ROW_REF = /^(B-\d+) ROW (\d+)$/;

export function parseRowRef(text: string): { approvalId: string; row: number } | undefined {
  const m = ROW_REF.exec(text.trim().replace(/\s+/g, ' ').toUpperCase());
  return m?.[1] && m[2] ? { approvalId: m[1], row: Number(m[2]) } : undefined;
}

/**
 * The payment named by the first words typed: `B-1003 row 2` (three words) or an execution id
 * (`B-1003.1`, `R-12.1`, one word), upper-cased, and the words after it.
 */
export function leadingRef(words: readonly string[]): { ref: string; rest: string[] } {
  const [first = '', second = '', third = '', ...after] = words;
  if (second.toLowerCase() === 'row' && /^\d+$/.test(third) && APPROVAL_ID.test(first.toUpperCase()))
    return { ref: `${first.toUpperCase()} row ${third}`, rest: after };
  return { ref: first, rest: words.slice(1) };
}

/** A full execution id or a batch's row, or the sentence that asks for one. */
export function executionIdProblem(rawId: string): string | undefined {
  const id = rawId.toUpperCase();
  if (!rawId) return 'Name the payment to resolve, e.g. R-1234.1 or B-7 row 3.';
  if (EXECUTION_ID.test(id)) return undefined;
  if (parseRowRef(id)) return undefined;
  // Whether `id` is a batch is the stored shape's to say, not its letter: one sentence serves both.
  if (APPROVAL_ID.test(id))
    return `Name the execution, e.g. ${id}.1 (a batch's row: ${id} row 3), so a typo cannot settle another payment; nothing changed.`;
  return `"${shorten(rawId)}" is not a request id; use one such as R-1234.1.`;
}

/** The reason a not-paid proposal gives, or the sentence naming its problem. */
export function whyProblem(id: string, why: string): string | undefined {
  if (why.length < 3) return `Say why ${id} was not paid (what you checked); the team reads it.`;
  if (why.length > MAX_WHY) return `Keep the reason under ${MAX_WHY} characters.`;
  return undefined;
}

export const cleanWhy = (words: string): string => words.replace(/\s+/g, ' ').trim();

export function parseResolution(words: readonly string[]): ParsedResolution {
  const lead = leadingRef(words.map((w) => w.trim()).filter(Boolean));
  const rawId = lead.ref;
  const [rawVerdict = '', ...rest] = lead.rest;
  const id = parseRowRef(rawId) ? rawId : rawId.toUpperCase();
  const idProblem = executionIdProblem(rawId);
  if (idProblem) return { ok: false, problem: idProblem };
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
  const why = cleanWhy(rest.join(' '));
  const problem = whyProblem(id, why);
  if (problem) return { ok: false, problem };
  return { ok: true, resolution: { id, paid: false, note: why } };
}

export const isReference = (s: string): boolean => REFERENCE.test(s);
