/**
 * The one set of security headers on every answer Rampart's server gives (the probes, /metrics,
 * Slack's events, the HTTP API, the passkey pages): nothing sniffed, framed, cached or referred.
 * Only the Content-Security-Policy differs, per mount: by default nothing may load (JSON and
 * text answers load nothing); the passkey pages load their own script, style and fetches.
 */
import type { ServerResponse } from 'node:http';

export const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The passkey pages: scripts, styles and fetches from Rampart's own origin only, never framed. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(csp: string = DEFAULT_CSP): Readonly<Record<string, string>> {
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    // A page of ours opened from elsewhere gets no handle on its opener, nor the opener on it.
    'cross-origin-opener-policy': 'same-origin',
  };
}

export function setSecurityHeaders(res: ServerResponse, csp?: string): void {
  for (const [name, value] of Object.entries(securityHeaders(csp))) res.setHeader(name, value);
}
