/**
 * A service that echoes what it was sent (DESIGN invariant 6): in front of the
 * sandbox, a loopback proxy answers POST /transfer with a refusal that repeats the x-service-key,
 * a date of birth, a BVN and an account number. None of it reaches a log line or Slack.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeText } from '../support/applying-service.js';
import {
  BOT_TOKEN,
  eventually,
  expectNoPersonalData,
  PEOPLE,
  SERVICE_KEY,
  SIGNING_SECRET,
} from '../support/harness.js';
import { click, postRequest, RECEIVER, threadOf, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let target = '';
let proxyUrl = '';
const proxy = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/transfer') {
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['x-service-key']);
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end(
          envelopeText(
            403,
            `key ${key} may not pay for ADA OKAFOR (born 01-02-1990, BVN 22233344455, account 0123 456 789); bot ${BOT_TOKEN}`,
          ),
        );
    });
    return;
  }
  const url = new URL(req.url ?? '/', target);
  const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  req.pipe(upstream);
});

beforeAll(async () => {
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
});
const h = useHarness('echo', () => ({ SERVICE_BASE_URL: proxyUrl }));
beforeAll(() => {
  target = h.sandbox.url;
});

describe('a service that echoes secrets and personal data', () => {
  it('the refusal is shown with the key, tokens, date of birth and numbers masked', async () => {
    const { id } = await postRequest(h, 'transfer', `17 base:usdc to ${RECEIVER} from ops for echo`);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForState(h, id, 'failed');
    const reply = await eventually(() => threadOf(h, id).find((m) => m.text.includes('failed')), 10_000, 'reply');
    expect(reply.text).toContain('may not pay for ADA OKAFOR (born ••-••-••••, BVN ••••4455, account ••••6789)');
    expect(reply.text).toContain('[secret]');
    expectNoPersonalData(h, [SERVICE_KEY, BOT_TOKEN, SIGNING_SECRET, '01-02-1990', '22233344455', '0123 456 789']);
    const stored = JSON.stringify(await h.rampart.deps.store.get(id));
    for (const leak of [SERVICE_KEY, BOT_TOKEN, '01-02-1990', '22233344455']) expect(stored).not.toContain(leak);
  });
});
