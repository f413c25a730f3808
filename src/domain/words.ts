/** Real plurals in every sentence people read ("1 approval", "2 beneficiaries"). Pure. */

/** The word alone: `one` for exactly 1, else `many` (default `one` + "s"). */
export const pluralWord = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many);

/** The count and its word: "1 approval", "3 approvals", "2 beneficiaries". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${pluralWord(n, one, many)}`;
