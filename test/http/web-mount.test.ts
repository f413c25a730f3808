/**
 * The passkey pages are served by Rampart's own HTTP server under PUBLIC_URL's path, with their own strict CSP; other paths stay 404 and the probes are untouched.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use-harness.js';

const h = useHarness(
  'web-mount',
  {
    STEP_UP_ABOVE: 'USDC=10000',
    PUBLIC_URL: 'http://localhost:3000/passkeys',
  },
  { healthy: false }, // plain HTTP: Slack sends nothing here
);

const get = (path: string) => request(`http://127.0.0.1:${h.rampart.port}${path}`);

describe('passkey pages on Rampart’s server', () => {
  it('serves the step-up page under PUBLIC_URL’s path with a strict CSP and no referrer', async () => {
    const res = await get('/passkeys/step-up');
    const html = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(html).not.toContain('R-');
  });

  it('counts a passkey attempt through the app the web role builds for the pages', async () => {
    const res = await request(`http://127.0.0.1:${h.rampart.port}/passkeys/step-up/begin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ token: 'not-a-link' }),
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(((await res.body.json()) as { html: string }).html).toContain('no longer valid');
    const metrics = await (await get('/metrics')).body.text();
    expect(metrics).toMatch(/rampart_step_up_attempts_total\{purpose="approve",outcome="invalid"\} 1/);
  });

  it('answers 404 for a path the pages do not know, and the probes still answer', async () => {
    const missing = await get('/passkeys/nothing-here');
    await missing.body.text();
    expect(missing.statusCode).toBe(404);
    const live = await get('/livez');
    await live.body.text();
    expect(live.statusCode).toBe(200);
  });
});
