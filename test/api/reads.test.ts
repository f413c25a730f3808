/**
 * Reading and cancelling over the API: a request by id (own owner's, or any with
 * requests:read:all), the list newest first with cursor pages and a state filter, and cancel
 * through the cancel use case: only the key's own requests, only while pending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, PEOPLE, startHarness } from '../support/harness.js';
import { postRequest, RECEIVER } from '../support/requests.js';
import { type Api, newKey, startApi, transfer } from './support.js';

let h: Harness;
let api: Api;
beforeAll(async () => {
  h = await startHarness('api-reads', { API_RATE: 'off' });
  api = await startApi(h);
  await h.rampart.deps.store.addPayee('base', RECEIVER);
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

let n = 0;
async function create(token: string, amount: string): Promise<string> {
  const a = await api.call('POST', '/transfers', { token, idempotencyKey: `r-${++n}`, body: transfer({ amount }) });
  expect(a.status).toBe(201);
  return String(a.json.id);
}

describe('reading', () => {
  it('reads its owner’s requests, not another owner’s unless the key has requests:read:all', async () => {
    const mine = await newKey(api);
    const other = await newKey(api, { owner: PEOPLE.groupMember });
    const all = await newKey(api, { owner: PEOPLE.groupMember, scopes: ['requests:read:all'] });
    const id = await create(mine.token, '41');
    const read = await api.call('GET', `/requests/${id}`, { token: mine.token });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      id,
      state: 'pending',
      execution_count: 1,
      executions: [{ id: `${id}.1`, state: 'queued' }],
      executions_next_cursor: null,
      history: [{ event: 'requested' }],
    });
    expect((await api.call('GET', `/requests/${id}`, { token: other.token })).status).toBe(404);
    expect((await api.call('GET', `/requests/${id}`, { token: all.token })).status).toBe(200);
    // A request typed in Slack is readable only with requests:read:all.
    const { id: typed } = await postRequest(h, 'transfer', `5 base:usdc to ${RECEIVER} from ops for slack`);
    expect((await api.call('GET', `/requests/${typed}`, { token: mine.token })).status).toBe(404);
    expect((await api.call('GET', `/requests/${typed}`, { token: all.token })).json.id).toBe(typed);
    expect((await api.call('GET', '/requests/nonsense', { token: mine.token })).status).toBe(404);
  });

  it('lists newest first in cursor pages, filtered by state', async () => {
    const { token } = await newKey(api, { owner: PEOPLE.approver2 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await create(token, `${50 + i}`));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = await api.call('GET', `/requests?limit=2${q}`, { token });
      expect(page.status).toBe(200);
      seen.push(...(page.json.data as Array<{ id: string }>).map((r) => r.id));
      cursor = page.json.next_cursor as string | null;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const cancelled = await api.call('POST', `/requests/${ids[0]}/cancel`, { token, idempotencyKey: 'c-0' });
    expect(cancelled.json.state).toBe('cancelled');
    const filtered = await api.call('GET', '/requests?state=cancelled', { token });
    expect((filtered.json.data as Array<{ id: string }>).map((r) => r.id)).toEqual([ids[0]]);
    const bad = await api.call('GET', '/requests?state=lost', { token });
    expect([bad.status, bad.json.code]).toEqual([400, 'invalid_field']);
  });
});

describe('cancelling', () => {
  it('cancels only its own key’s pending requests', async () => {
    const a = await newKey(api, { owner: PEOPLE.approver1 });
    const b = await newKey(api, { owner: PEOPLE.approver1 });
    const id = await create(a.token, '61');
    const byOther = await api.call('POST', `/requests/${id}/cancel`, { token: b.token, idempotencyKey: 'x1' });
    expect([byOther.status, byOther.json.code]).toEqual([403, 'not_cancellable']);
    const ok = await api.call('POST', `/requests/${id}/cancel`, { token: a.token, idempotencyKey: 'x2' });
    expect(ok.status).toBe(200);
    expect(ok.json.history).toEqual(expect.arrayContaining([expect.objectContaining({ event: 'cancelled' })]));
    const again = await api.call('POST', `/requests/${id}/cancel`, { token: a.token, idempotencyKey: 'x3' });
    expect([again.status, again.json.code]).toEqual([409, 'not_cancellable']);
    const replay = await api.call('POST', `/requests/${id}/cancel`, { token: a.token, idempotencyKey: 'x2' });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  });
});

describe('the OpenAPI document', () => {
  it('is served without a key, generated on first request (its generator is loaded only then)', async () => {
    const a = await api.call('GET', '/openapi.json');
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });
    expect(Object.keys((a.json as { paths: object }).paths)).toContain('/transfers');
  });
});
