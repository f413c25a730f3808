/**
 * Passkey page tokens: attempts on the passkey pages are limited per client address only when
 * TRUST_PROXY names the proxy, over real loopback HTTP. A peer that is not the named proxy is
 * limited by its own address whatever X-Forwarded-For it sends; through the named proxy the
 * limit follows the client address the proxy appended; with no proxy named, none applies.
 */
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebHandler } from '../../src/adapters/web/handler.js';
import { createApp } from '../../src/app/index.js';
import { enrolLink } from '../../src/app/passkey-enrol.js';
import type { WebDeps } from '../../src/compose/app-deps.js';
import { ATTEMPTS_PER_ADDRESS_HOUR } from '../../src/store/step-up-tokens.js';
import { PEOPLE } from '../support/harness.js';
import { usePages } from '../support/passkey-browser.js';
import { useHarness } from '../support/use-harness.js';

const pages = usePages();
// No Slack request here, so no Slack checks at the end; what matters is that no client address reached a log.
const h = useHarness('step-up-proxy', () => ({ STEP_UP_ABOVE: 'USDC=10000', PUBLIC_URL: pages.publicUrl }), {
  healthy: false,
});
afterAll(() => {
  for (const address of ['203.0.113.7', '198.51.100.1']) expect(h.logs.text).not.toContain(address);
});

/** The pages as Rampart mounts them, with TRUST_PROXY as given (the harness's other settings). */
function mountWith(trustProxy: string[]): void {
  const d: WebDeps = h.rampart.deps;
  pages.mount(createWebHandler(createApp(d), { ...d.config.stepUp, trustProxy }, d.log));
}

/** POSTs one attempt from the loopback peer, with the X-Forwarded-For given; what the page says. */
async function attempt(step: string, token: string, forwardedFor?: string): Promise<string> {
  const res = await request(`${pages.publicUrl}/${step}`, {
    method: 'POST',
    headers: {
      origin: new URL(pages.publicUrl).origin,
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: JSON.stringify({ token }),
  });
  const { html } = (await res.body.json()) as { html: string };
  return html;
}

const guessed = (i: number) => `${String(i).padStart(4, '0')}${'x'.repeat(39)}`;
const limited = (html: string) => html.includes('Too many attempts');

/** Sends `n` guessed links; how many were refused as over the limit. */
async function guesses(n: number, forwardedFor: (i: number) => string | undefined): Promise<number> {
  let refused = 0;
  for (let i = 0; i < n; i++) if (limited(await attempt('step-up/begin', guessed(i), forwardedFor(i)))) refused++;
  return refused;
}

async function enrolToken(): Promise<string> {
  const link = await enrolLink(h.rampart.deps, PEOPLE.approver2, false);
  if (link.kind !== 'link') throw new Error('no enrol link');
  return link.url.split('#')[1] ?? '';
}

describe('per-client-address attempt limits (TRUST_PROXY)', () => {
  it('ignores a spoofed X-Forwarded-For from a peer that is not the named proxy', async () => {
    mountWith(['10.9.9.9']);
    // Every guess names another "client", yet all come from 127.0.0.1 and count there.
    const refused = await guesses(ATTEMPTS_PER_ADDRESS_HOUR + 5, (i) => `198.51.100.${i}`);
    expect(refused).toBe(5);
    // A real link from that peer is refused too, on both pages' first step.
    expect(limited(await attempt('passkey/begin', await enrolToken(), '198.51.100.200'))).toBe(true);
  });

  it('through the named proxy, limits each client address the proxy appended', async () => {
    mountWith(['127.0.0.1', '10.0.0.0/8']);
    const client = '203.0.113.7';
    expect(await guesses(ATTEMPTS_PER_ADDRESS_HOUR, () => `${client}, 10.1.2.3`)).toBe(0);
    // A client-written address on the left changes nothing: the right-most non-proxy one counts.
    expect(limited(await attempt('step-up/begin', guessed(1), `192.0.2.1, ${client}`))).toBe(true);
    const token = await enrolToken();
    expect(limited(await attempt('passkey/begin', token, client))).toBe(true);
    // Another client behind the same proxy is not limited, and its real link still works.
    const other = await attempt('passkey/begin', token, '203.0.113.8');
    expect(limited(other)).toBe(false);
    expect(other).toContain(PEOPLE.approver2);
  });

  it('with no proxy named, limits no address (per link and per approver only)', async () => {
    mountWith([]);
    // 127.0.0.1 is over its limit from the first test; unnamed, no address is counted at all.
    expect(await guesses(ATTEMPTS_PER_ADDRESS_HOUR + 5, () => '203.0.113.7')).toBe(0);
    expect(await attempt('passkey/begin', await enrolToken())).toContain(PEOPLE.approver2);
  });
});
