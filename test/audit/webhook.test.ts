/**
 * The audit webhook: every state change POSTed, signed, in order per request and
 * once each — also when the receiver is down for a while and then comes back.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signature, verifySignature } from '../../src/audit/webhook.js';
import { AUDIT_QUEUE } from '../../src/audit/webhook-delivery.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { auditReceiver } from '../support/audit-receiver.js';
import { buildFreshRequest } from '../support/factories.js';
import { eventually, PEOPLE } from '../support/harness.js';
import { click, postRequest, RECEIVER, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const SECRET = 'audit-webhook-secret-for-tests';
const receiver = auditReceiver({ secret: SECRET, up: false });
const received = receiver.deliveries;
beforeAll(() => receiver.start());
afterAll(() => receiver.close());
const h = useHarness('audit-webhook', () => ({ AUDIT_WEBHOOK_URL: receiver.url, AUDIT_WEBHOOK_SECRET: SECRET }), {
  rampart: { auditDelivery: { backoffMs: 100, maxBackoffMs: 400, lockWaitMs: 50, concurrency: 4, sweepEveryMs: 200 } },
});

async function storeRequest(reason: string, store = h.rampart.deps.store): Promise<string> {
  const call: ServiceCall = {
    kind: 'offramp',
    body: { wallet_id: 'wal_ops_7f3a', amount: 1, beneficiary_id: 'ben_1', asset: 'base:usdc' },
  };
  const id = await store.nextId();
  await store.create(buildFreshRequest(id, { call, reason, expiresAt: Date.now() + 3_600_000 }));
  return id;
}

describe('the audit webhook', () => {
  it('signs with HMAC-SHA256 over v0:timestamp:body, and a changed body or old timestamp fails', () => {
    const body = '{"event_id":"R-1:1"}';
    const sig = signature(SECRET, 1_800_000_000, body);
    expect(sig).toMatch(/^v0=[0-9a-f]{64}$/);
    const ok = { timestamp: '1800000000', signature: sig };
    expect(verifySignature(SECRET, ok, body, 1_800_000_010)).toBe(true);
    expect(verifySignature(SECRET, ok, body.replace('1:1', '1:2'), 1_800_000_010)).toBe(false);
    expect(verifySignature('another-secret-entirely', ok, body, 1_800_000_010)).toBe(false);
    expect(verifySignature(SECRET, ok, body, 1_800_000_000 + 301)).toBe(false);
  });

  it('delivers every state change once, in order per request, after the receiver was down', async () => {
    const paid = await postRequest(h, 'transfer', `31 base:usdc to ${RECEIVER} from ops for audit webhook`);
    await click(h, PEOPLE.approver1, paid.id, 'request_approve');
    await waitForState(h, paid.id, 'succeeded');
    const store = h.rampart.deps.store;
    const cancelled = await storeRequest('to cancel');
    const denied = await storeRequest('to deny');
    await store.transition(cancelled, ['pending'], 'cancelled', { event: 'cancelled', by: PEOPLE.requester });
    await store.transition(denied, ['pending'], 'denied', {
      event: 'denied',
      by: PEOPLE.approver2,
      detail: 'acct 0123456789',
    });
    await eventually(() => receiver.refused >= 8 || undefined, 15_000, 'several refused deliveries');
    expect(received).toEqual([]);
    receiver.up = true;

    const expected: Record<string, string[]> = {
      [paid.id]: ['pending', 'approved', 'executing', 'succeeded'],
      [cancelled]: ['pending', 'cancelled'],
      [denied]: ['pending', 'denied'],
    };
    const total = Object.values(expected).flat().length;
    await eventually(() => received.length >= total || undefined, 20_000, 'every event delivered');
    // Nothing more is on its way: the audit queue is empty, then nothing else arrives.
    const queue = new Queue(AUDIT_QUEUE, { connection: h.rampart.redis, prefix: `${h.prefix}:bull` });
    await eventually(
      async () => {
        const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
        return Object.values(counts).every((n) => n === 0) || undefined;
      },
      20_000,
      'the audit queue to drain',
    );
    await queue.close();

    expect(received.every((r) => r.verified)).toBe(true);
    const ids = received.map((r) => r.body.event_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(received).toHaveLength(total);
    for (const [id, states] of Object.entries(expected)) {
      const mine = received.map((r) => r.body).filter((b) => b.request_id === id);
      expect(mine.map((b) => b.state)).toEqual(states);
    }
    const last = received.map((r) => r.body).find((b) => b.request_id === paid.id && b.state === 'succeeded');
    expect(last?.outcome?.link).toMatch(/^https:\/\/basescan\.org\/tx\/0x/);
    expect(last?.call_hash).toBe((await store.get(paid.id))?.sealed.hash);
    const deniedEvent = received.map((r) => r.body).find((b) => b.request_id === denied && b.state === 'denied');
    expect(deniedEvent).toMatchObject({ by: PEOPLE.approver2, detail: 'acct ••••6789' });
  });

  it('still delivers a state change whose job was never queued (a process that died right after the change)', async () => {
    // A store with no change listener: the state changes land in Redis and nothing is queued.
    const silent = new RequestStore(h.rampart.redis, h.prefix);
    const id = await storeRequest('queued by nobody', silent);
    await silent.transition(id, ['pending'], 'cancelled', { event: 'cancelled', by: PEOPLE.requester });
    const states = async () =>
      received
        .map((r) => r.body)
        .filter((b) => b.request_id === id)
        .map((b) => b.state);
    await eventually(async () => ((await states()).length >= 2 ? true : undefined), 15_000, 'the swept events');
    expect(await states()).toEqual(['pending', 'cancelled']);
  });
});
