/**
 * How personal data is shown, in one place (DESIGN invariant 6): never whole, only its last four
 * digits. Used by Slack messages, the CLI and error messages alike.
 */

/** "•••••••1234": one dot per hidden character; short values are hidden whole. */
export const maskTail = (value: string, visible = 4): string =>
  value.length <= visible ? '•'.repeat(4) : '•'.repeat(value.length - visible) + value.slice(-visible);

/** A bank account number as cards and answers show it: "••••6789". */
export const maskAccount = (accountNumber: string): string => `••••${accountNumber.slice(-4)}`;

export const maskBvn = (bvn: string | undefined): string => (bvn && bvn.length >= 4 ? maskTail(bvn) : 'not shown');

/** Free text (e.g. the service's own message) with any long number cut to its last four digits. */
export const maskLongNumbers = (text: string): string => text.replace(/\d{8,}/g, (d) => maskAccount(d));
