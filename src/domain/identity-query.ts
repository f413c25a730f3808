/**
 * What a person typed where an identity is chosen: a name, the last digits of a BVN,
 * or an identity id worth checking with the service. Pure.
 */

/** Eleven digits: a BVN. Never sent to the service as an id, never echoed back. */
export const looksLikeBvn = (text: string): boolean => /^\d{11}$/.test(text.replace(/\s/g, ''));

/** A run of eight or more digits: an account number or a BVN, never to be shown whole. */
export const hasLongNumber = (text: string): boolean => /\d{8,}/.test(text);

// The spec does not say what an id looks like (2.6); ids seen so far are letters, digits and _ - . :
const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export const isIdLike = (text: string): boolean => ID.test(text);

/**
 * Worth a GET /identity: one word, at least six characters, with a digit (names have none), and
 * not a BVN. Anything shorter is searched in Rampart's registry only (names, last digits).
 */
export const isIdentityIdQuery = (query: string): boolean => {
  const q = query.trim();
  return q.length >= 6 && ID.test(q) && /\d/.test(q) && !looksLikeBvn(q) && !/^\d{10}$/.test(q);
};

/** "idn_3f9c…a41b": long ids shortened for option labels (75 characters at most). */
export const shortId = (id: string): string => (id.length <= 16 ? id : `${id.slice(0, 8)}…${id.slice(-4)}`);
