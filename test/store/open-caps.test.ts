/**
 * The open caps are counted and claimed by the create script itself: at a cap nothing is
 * stored; a request that leaves the open states gives its place back; requests open before the
 * script kept these counts are counted once the worker's start-up migration has run.
 */
import { expect, it } from 'vitest';
import { holdsOpenPlace, openCapOutcome } from '../../src/domain/open-caps.js';
import type { SealedRequest, ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('open-caps');
const store = new RequestStore(redis, prefix);

const call: ServiceCall = { kind: 'transfer', body: { wallet_id: 'w', amount: 1, receiver: 'r', asset: 'base:usdc' } };
const request = async (requester: string, keyId?: string): Promise<SealedRequest> => {
  const sealed = buildFreshRequest(await store.nextId(), { call, requester });
  if (keyId) sealed.display = { ...sealed.display, viaApi: { keyId, keyName: keyId, owner: requester } };
  return sealed;
};
const cancel = (id: string) => store.decide(id, 'cancelled', { event: 'cancelled', by: 'U0X' });

it("refuses a create at the requester's cap, storing nothing, and gives the place back when a request closes", async () => {
  const first = await request('U0CAP1');
  expect(await store.create(first, { caps: { requester: 1 } })).toEqual({ outcome: 'created', id: first.id });
  const second = await request('U0CAP1');
  expect(await store.create(second, { caps: { requester: 1 } })).toEqual({
    outcome: 'too_many_open',
    holder: 'requester',
    open: 1,
  });
  expect(await store.get(second.id)).toBeUndefined();
  expect(await store.openIds()).not.toContain(second.id);
  // Someone else is not held back.
  expect((await store.create(await request('U0CAP2'), { caps: { requester: 1 } })).outcome).toBe('created');
  expect((await cancel(first.id)).ok).toBe(true);
  expect((await store.create(second, { caps: { requester: 1 } })).outcome).toBe('created');
});

it("refuses a create at the API key's cap and counts each key apart", async () => {
  const caps = { requester: 20, apiKey: 1 };
  const first = await request('U0KEYS', 'key1');
  expect((await store.create(first, { caps })).outcome).toBe('created');
  expect(await store.create(await request('U0KEYS', 'key1'), { caps })).toEqual({
    outcome: 'too_many_open',
    holder: 'api_key',
    open: 1,
  });
  expect((await store.create(await request('U0KEYS', 'key2'), { caps })).outcome).toBe('created');
  expect((await store.create(await request('U0KEYS'), { caps })).outcome).toBe('created');
  await cancel(first.id);
  expect((await store.create(await request('U0KEYS', 'key1'), { caps })).outcome).toBe('created');
});

it('counts requests that were open before the create script kept counts, once the start-up migration ran', async () => {
  const old = await request('U0OLD');
  await store.create(old);
  await redis.del(`${prefix}:req:open:by:U0OLD`); // as written before the script kept the count
  await store.migrate();
  expect(await store.create(await request('U0OLD'), { caps: { requester: 1 } })).toMatchObject({
    outcome: 'too_many_open',
  });
});

it('decides as the domain rule does for every count and cap, the requester and the key alike', async () => {
  let person = 0;
  for (const cap of [1, 2, 3])
    for (const already of [0, 1, 2, 3]) {
      const requester = `U0GRID${++person}`;
      const key = `grid${person}`;
      for (let i = 0; i < already; i++) await store.create(await request(requester, key));
      const byRequester = await store.create(await request(requester), { caps: { requester: cap } });
      expect(byRequester.outcome === 'created', `requester ${already}/${cap}`).toBe(
        openCapOutcome({ requester: already }, { requester: cap }).ok,
      );
      const byKey = await store.create(await request(`${requester}K`, key), { caps: { requester: 99, apiKey: cap } });
      expect(byKey.outcome === 'created', `key ${already}/${cap}`).toBe(
        openCapOutcome({ requester: 0, apiKey: already }, { requester: 99, apiKey: cap }).ok,
      );
    }
});

it("counts a series once while pending and not once live, against the requester's and the API key's caps", async () => {
  for (const [requester, keyId] of [
    ['U0SERIES1', undefined],
    ['U0SERIES2', 'keyS'],
  ] as const) {
    const capped = keyId ? { requester: 20, apiKey: 1 } : { requester: 1 };
    const series = await request(requester, keyId);
    expect((await store.create(series, { caps: capped, shape: 'series' })).outcome).toBe('created');
    // Pending: it holds its place.
    expect(await store.create(await request(requester, keyId), { caps: capped })).toMatchObject({
      outcome: 'too_many_open',
      holder: keyId ? 'api_key' : 'requester',
    });
    expect(holdsOpenPlace('pending')).toBe(true);
    expect((await store.castVote(series.id, 'U0APPROVER')).state as string).toBe('live');
    expect(holdsOpenPlace('live')).toBe(false);
    // Live: still open (its runs are to come), but its place is given back.
    expect(await store.openIds()).toContain(series.id);
    expect((await store.create(await request(requester, keyId), { caps: capped })).outcome).toBe('created');
  }
});
