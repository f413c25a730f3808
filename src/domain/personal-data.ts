/**
 * How personal data is shown, in one place (DESIGN invariant 6): never whole, only its last four
 * digits. Used by Slack messages, the CLI and error messages alike.
 */

/**
 * "••••1234": the one mask format, four dots whatever the length (the length is not shown
 * either); short values are hidden whole.
 */
export const maskTail = (value: string, visible = 4): string =>
  value.length <= visible ? '•'.repeat(4) : `••••${value.slice(-visible)}`;

/** A bank account number as cards and answers show it: "••••6789". */
export const maskAccount = (accountNumber: string): string => `••••${accountNumber.slice(-4)}`;

/**
 * The one BVN mask, from the whole BVN or the last four digits Rampart keeps:
 * "••••5667", or "not shown" when there is nothing to show.
 */
export const maskBvn = (bvn: string | undefined): string =>
  bvn && /^\d{4,}$/.test(bvn) ? `••••${bvn.slice(-4)}` : 'not shown';

/** "BVN ••••5667" (or "BVN not shown"): how every message names a BVN. */
export const bvnText = (bvn: string | undefined): string => `BVN ${maskBvn(bvn)}`;

/** Free text (e.g. the service's own message) with any long number cut to its last four digits. */
export const maskLongNumbers = (text: string): string => text.replace(/\d{8,}/g, (d) => maskAccount(d));

// Dates of birth as a service may echo them: 01-02-1990, 1/2/1990, 1990-02-01, 01.02.1990.
const DATES = /\b(?:\d{1,2}[-/.]\d{1,2}[-/.]\d{4}|\d{4}[-/.]\d{1,2}[-/.]\d{1,2})\b/g;
// 10–11 digits written in groups (0123 456 789, 222-333-444-55): a NUBAN or BVN with separators.
const GROUPED = /\b\d{2,}(?:[ .-]\d{2,}){1,4}\b/g;
/** Shorter "secrets" (test keys such as "k") would shred ordinary words; real ones are longer. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Free text from outside Rampart (the service's own words), made safe to show, store and log
 * (DESIGN invariant 6): every configured secret wherever it occurs, every date,
 * account- or BVN-like numbers, with or without separators, down to their last four digits.
 */
export function maskServiceText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join('[secret]');
  return maskLongNumbers(
    out.replace(DATES, '••-••-••••').replace(GROUPED, (g) => {
      const digits = g.replace(/\D/g, '');
      return digits.length >= 10 && digits.length <= 11 ? maskAccount(digits) : g;
    }),
  );
}
