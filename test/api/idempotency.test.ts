/**
 * Idempotency-Key: replays, a changed body, concurrency, transient refusals not kept,
 * 7 days by the injected clock, at most N records per key. A process killed between the create
 * and its answer is in test/e2e/api.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../src/store/idempotency.js';
import { APPROVALS, blocksText, eventually, type Harness, startHarness } from '../support/harness.js';
import { quiescent, RECEIVER } from '../support/requests.js';
import { type Api, newKey, startApi, transfer } from './support.js';

let h: Harness;
let api: Api;
let clock = Date.now();
beforeAll(async () => {
  h = await startHarness('api-idem', { API_RATE: 'off' });
  api = await startApi(h, { now: () => clock });
  await h.rampart.deps.store.addPayee('base', RECEIVER);
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const cardsFor = (id: string) => h.fake.messages(APPROVALS).filter((m) => blocksText(m).includes(`${id}"`)).length;
const requestCount = async () => (await h.rampart.deps.store.recentIds(1000)).length;

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, and refuses a changed body with 422', async () => {
    const { token } = await newKey(api);
    const first = await api.call('POST', '/transfers', { token, idempotencyKey: 'inv-1', body: transfer() });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await requestCount();
    // Same canonical JSON: keys in another order.
    const { reason, ...rest } = transfer();
    const again = await api.call('POST', '/transfers', { token, idempotencyKey: 'inv-1', body: { reason, ...rest } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const changed = await api.call('POST', '/transfers', {
      token,
      idempotencyKey: 'inv-1',
      body: transfer({ amount: '26' }),
    });
    expect([changed.status, changed.json.code]).toEqual([422, 'idempotency_key_reused']);
    expect(await requestCount()).toBe(before);
    // The create's claim outlives the 7-day record: a retry after a crash, days later, finds it.
    const claims = await h.rampart.redis.keys(`${h.prefix}:submission:api:*`);
    expect(claims.length).toBeGreaterThan(0);
    for (const k of claims) expect(await h.rampart.redis.pttl(k)).toBeGreaterThan(7 * 86_400_000);
  });

  it('20 concurrent attempts with one key make one request and one card', async () => {
    const { token } = await newKey(api);
    const before = await requestCount();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.call('POST', '/transfers', { token, idempotencyKey: 'burst', body: transfer({ amount: '31' }) }),
      ),
    );
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].every((s) => s === 201 || s === 409)).toBe(true);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.json.id));
    expect(ids.size).toBe(1);
    expect(await requestCount()).toBe(before + 1);
    const [id] = [...ids] as string[];
    await eventually(() => cardsFor(id ?? '') > 0, 10_000, 'card');
    await quiescent(h);
    expect(cardsFor(id ?? '')).toBe(1);
  });

  it('keeps a field refusal but not a transient one (the open limit)', async () => {
    const { token, key } = await newKey(api, { limits: { maxOpen: 1 } });
    const bad = { token, idempotencyKey: 'bad', body: transfer({ amount: '12,5' }) };
    expect((await api.call('POST', '/transfers', bad)).status).toBe(400);
    const replay = await api.call('POST', '/transfers', bad);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([400, 'true']);
    const first = await api.call('POST', '/transfers', { token, idempotencyKey: 'one', body: transfer() });
    expect(first.status).toBe(201);
    const second = { token, idempotencyKey: 'two', body: transfer({ amount: '27' }) };
    expect((await api.call('POST', '/transfers', second)).json.code).toBe('too_many_open');
    const cancelled = await api.call('POST', `/requests/${String(first.json.id)}/cancel`, {
      token,
      idempotencyKey: 'c1',
    });
    expect(cancelled.json.state).toBe('cancelled');
    const retried = await api.call('POST', '/transfers', second);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(key.limits.maxOpen).toBe(1);
  });

  it('keeps records 7 days: a replay at 6 d 23 h answers the first, at 7 d 1 h creates anew', async () => {
    const { token } = await newKey(api);
    const start = clock;
    const body = { token, idempotencyKey: 'weekly', body: transfer({ amount: '28' }) };
    const first = await api.call('POST', '/transfers', body);
    clock = start + (6 * 24 + 23) * 3_600_000;
    const late = await api.call('POST', '/transfers', body);
    expect([late.json.id, late.headers.get('idempotent-replayed')]).toEqual([first.json.id, 'true']);
    clock = start + (7 * 24 + 1) * 3_600_000;
    const after = await api.call('POST', '/transfers', body);
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    expect(after.json.id).not.toBe(first.json.id);
  });

  it('keeps at most the newest N records per API key', async () => {
    const store = new IdempotencyStore(h.rampart.redis, h.prefix, 3);
    for (let i = 0; i < 5; i++) await store.write('k1', `key-${i}`, { fingerprint: 'f', since: 1000 + i });
    expect(await store.count('k1')).toBe(3);
    expect(await store.read('k1', 'key-0')).toBeUndefined();
    expect(await store.read('k1', 'key-1')).toBeUndefined();
    expect((await store.read('k1', 'key-4'))?.since).toBe(1004);
  });

  it('counts the records each live key keeps on /metrics (the gauge the alert reads)', async () => {
    const { key } = await newKey(api, { name: 'gauge-erp' });
    const store = new IdempotencyStore(h.rampart.redis, h.prefix);
    for (let i = 0; i < 4; i++) await store.write(key.id, `g-${i}`, { fingerprint: 'f', since: 1000 + i });
    const text = await h.rampart.metrics.render();
    expect(text).toContain('rampart_api_idempotency_records{key="gauge-erp"} 4');
  });
});
