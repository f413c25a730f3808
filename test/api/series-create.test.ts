/**
 * A series through the HTTP API: POST /transfers with a `schedule`. The key needs the
 * schedules:create scope and its --max-amount judges the series' total; a schedule that cannot
 * run is refused on its own field; a created series gets its card, is approved there through a
 * signed Slack request, and its first run reaches the wallet service once.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyActor } from '../../src/domain/api-rules.js';
import { validateDraft } from '../../src/domain/draft.js';
import { SeriesStore } from '../../src/store/series.js';
import { APPROVALS, blocksText, eventually, PEOPLE, REDIS_URL } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';
import { newKey, transfer, useApi } from './support.js';

const h = useHarness('api-series', { API_RATE: 'off', SCHEDULE_MIN_INTERVAL: '1m', SCHEDULE_MAX_AHEAD: '400d' });
const api = useApi(h);
const redis = new Redis(REDIS_URL);
beforeAll(async () => {
  await h.rampart.deps.store.addPayee('base', flow.RECEIVER);
});
afterAll(async () => {
  await redis.quit();
});

const MONTHLY = { every: 'month', day: 1, at: '09:00', zone: 'Africa/Lagos', runs: 12 };
/** MONTHLY as the door reads it (ScheduleInput). */
const MONTHLY_INPUT = {
  every: { unit: 'month' as const, day: 1 },
  at: '09:00',
  zone: 'Africa/Lagos',
  ends: { after: 12 },
};
const SCOPES = ['requests:create', 'requests:read', 'schedules:create'] as const;
/** POST /transfers with `key` as Idempotency-Key; `over` as the API transfer's fields change it. */
const postTransfer = (token: string, key: string, over: Record<string, unknown>) =>
  api.call('POST', '/transfers', { token, idempotencyKey: key, body: transfer(over) });
const requestCount = async () => (await h.rampart.deps.store.recentIds(1000)).length;

describe('a series over the API', () => {
  it('is refused when 12 runs of 5,000 exceed a key’s --max-amount of 5,000, and nothing is stored', async () => {
    const { token } = await newKey(api, { scopes: [...SCOPES], limits: { maxAmount: '5000' } });
    const before = await requestCount();
    const r = await postTransfer(token, 'series-over', { amount: '5000', schedule: MONTHLY });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'amount_over_key_limit' });
    expect(String(r.json.detail)).toContain('12 runs, 60000 in all');
    expect(await requestCount()).toBe(before);
    // One payment of the same amount is within the key's limit.
    const one = await postTransfer(token, 'series-one', { amount: '5000' });
    expect(one.status).toBe(201);
  });

  it('an "entire balance" series is refused by the key’s --max-amount up front, never judged as 0', async () => {
    // The HTTP API always sends an amount; the façade's key door takes a draft, so this is its own check.
    const { key } = await newKey(api, { scopes: [...SCOPES], limits: { maxAmount: '5000' } });
    const read = validateDraft(
      {
        kind: 'transfer',
        wallet: 'ops',
        asset: 'base:usdc',
        amount: undefined,
        entireBalance: true,
        receiver: flow.RECEIVER,
        beneficiary: undefined,
        reason: 'sweep',
      },
      h.rampart.deps.config.wallets,
    );
    if (!('draft' in read)) throw new Error(JSON.stringify(read.errors));
    const before = await requestCount();
    const r = await api.deps.app.payments.submitWithKey(keyActor(key), {
      kind: 'transfer',
      draft: read.draft,
      amount: undefined,
      submission: 'series-entire',
      schedule: MONTHLY_INPUT,
    });
    expect(r).toEqual({
      kind: 'key_limit',
      refusal: {
        code: 'amount_over_key_limit',
        field: 'amount',
        message: `API key ${key.name} may request at most 5000 per request, and a series is judged on its total, which "entire balance" does not have; send an exact amount per run.`,
      },
    });
    expect(await requestCount()).toBe(before);
  });

  it('needs the schedules:create scope', async () => {
    const { token } = await newKey(api);
    const r = await postTransfer(token, 'series-scope', { amount: '10', schedule: MONTHLY });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'missing_scope' });
    expect(String(r.json.detail)).toContain('schedules:create');
  });

  it('refuses a schedule that cannot run on its own field, in one sentence', async () => {
    const { token } = await newKey(api, { scopes: [...SCOPES] });
    const zone = await postTransfer(token, 'series-zone', {
      amount: '10',
      schedule: { ...MONTHLY, zone: 'Mars/Olympus' },
    });
    expect(zone.status).toBe(400);
    expect(zone.json.errors).toEqual([{ pointer: '/schedule/zone', detail: expect.stringContaining('Mars/Olympus') }]);
    const both = await postTransfer(token, 'series-both', {
      amount: '10',
      run_at: '2026-12-24T09:00:00Z',
      schedule: MONTHLY,
    });
    expect(both.status).toBe(400);
    expect(both.json.errors).toEqual([{ pointer: '/run_at', detail: expect.stringContaining('not both') }]);
    const endless = await postTransfer(token, 'series-endless', {
      amount: '10',
      schedule: { every: 'days', n: 1, at: '09:00', zone: 'UTC' },
    });
    expect(endless.status).toBe(400);
    expect(endless.json.errors).toEqual([{ pointer: '/schedule/runs', detail: expect.stringContaining('ends') }]);
  });

  it('is created, approved on its card and its first run is sent once', async () => {
    const { token } = await newKey(api, { scopes: [...SCOPES], limits: { maxAmount: '5000' } });
    const created = await postTransfer(token, 'series-run', {
      amount: '7.31',
      schedule: { every: 'minutes', n: 1, zone: 'UTC', runs: 2 },
    });
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    expect(id).toMatch(/^S-\d+$/);
    expect(created.json).toMatchObject({ state: 'pending', execution_count: 0 });
    expect((created.json.schedule as { runs: string[] }).runs).toHaveLength(2);
    const card = await eventually(() => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(`${id}"`)));
    expect(blocksText(card)).toContain('Every minute');
    expect(blocksText(card)).toContain('2 runs, 7.31 USDC each to');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(async () =>
      ((await h.rampart.deps.store.get(id))?.approvalState as string) === 'live' ? true : undefined,
    );
    const series = new SeriesStore(redis, h.rampart.deps.store.keys);
    // The first run is a minute after the submission; it is created once and sent once.
    await eventually(
      () =>
        flow.serviceCalls(h, '/transfer').some((c) => (c.body as { amount?: number }).amount === 7.31)
          ? true
          : undefined,
      120_000,
      'the first run sent',
    );
    const [first] = await series.runs(id);
    expect(first).toMatchObject({ k: 1, status: 'created' });
    // Ended before its second run: nothing more is created or sent.
    expect((await series.end(id, PEOPLE.approver1)).outcome).toBe('ended');
    await flow.quiescent(h);
    expect(
      flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === 7.31),
    ).toHaveLength(1);
    const read = await api.call('GET', `/requests/${id}`, { token });
    expect(read.json).toMatchObject({ id, state: 'ended' });
    const schedule = await api.call('GET', `/schedules/${id}`, { token });
    expect(schedule.json).toMatchObject({ id, state: 'ended', schedule: { zone: 'UTC' } });
    expect((await api.call('GET', '/schedules/R-1', { token })).status).toBe(404);
  }, 180_000);
});
