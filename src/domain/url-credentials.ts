/**
 * URL credentials (`https://ops:SECRET@host`) are never shown ("Doctor prints
 * credentials"): the doctor, logs, errors and configuration messages show the URL with its user
 * and password replaced, wherever in a text the URL sits.
 */

// scheme://userinfo@ — userinfo stops at the first /, ?, # or whitespace (RFC 3986 §3.2).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;

export const maskUrlCredentials = (text: string): string => text.replace(USERINFO, '$1[redacted]@');

/** The user and password of a URL, decoded, for masking outside text (undefined when none). */
export function urlCredentials(url: string | undefined): string[] {
  if (!url || !URL.canParse(url)) return [];
  const u = new URL(url);
  return [u.password, u.username].map((p) => decodeURIComponent(p)).filter((p) => p !== '');
}
