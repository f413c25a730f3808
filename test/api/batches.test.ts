/**
 * POST /api/v1/batches on loopback: JSON rows refused with the batch file's own
 * sentences at JSON pointers (a reference must be one line of visible characters), a new
 * destination refused naming its rows, the key's --max-amount on the batch's total and
 * --max-open counting a batch once, 20 concurrent replays of one Idempotency-Key making one
 * batch and one card, and a batch's executions read page by page.
 * Every answer is checked against the OpenAPI document (support.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses } from '../support/batches.js';
import { APPROVALS, blocksText, eventually, type Harness, startHarness } from '../support/harness.js';
import { quiescent, RECEIVER } from '../support/requests.js';
import { type Api, newKey, startApi, transfer } from './support.js';

let h: Harness;
let api: Api;
const known = addresses(30, 7);
beforeAll(async () => {
  h = await startHarness('api-batches', { API_RATE: 'off', BATCH_RATE: 'off' });
  api = await startApi(h);
  for (const a of [RECEIVER, ...known]) await h.rampart.deps.store.addPayee('base', a);
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const cardsFor = (id: string) => h.fake.messages(APPROVALS).filter((m) => blocksText(m).includes(`${id}"`)).length;
const requestCount = async () => (await h.rampart.deps.store.recentIds(1000)).length;

const batch = (rows: Array<Record<string, unknown>>, over: Record<string, unknown> = {}) => ({
  kind: 'transfers',
  wallet: 'ops',
  asset: 'base:usdc',
  rows,
  reason: 'vendor run',
  ...over,
});
const rowsOf = (n: number, amount = '1') =>
  known.slice(0, n).map((receiver, i) => ({ receiver, amount, reference: `INV-${i + 1}` }));

let n = 0;
const post = (token: string, body: unknown) =>
  api.call('POST', '/batches', { token, idempotencyKey: `b-${++n}`, body });

/** A fresh key, and how many requests are stored before it is used. */
const keyAndCount = async () => ({ token: (await newKey(api)).token, before: await requestCount() });

/** POSTs a batch of `rows` that is refused as invalid (400 invalid_field): its errors. */
async function invalidRows(token: string, rows: Array<Record<string, unknown>>) {
  const a = await post(token, batch(rows));
  expect([a.status, a.json.code]).toEqual([400, 'invalid_field']);
  return a.json.errors;
}

describe('POST /batches', () => {
  it('creates one pending batch B-n whose card names the key, and reads its rows back as executions', async () => {
    const { token } = await newKey(api, { name: 'payroll' });
    const created = await post(token, batch(rowsOf(25)));
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    expect(id).toMatch(/^B-\d+$/);
    expect(created.headers.get('location')).toBe(`/api/v1/requests/${id}`);
    expect(created.json).toMatchObject({ state: 'pending', amount: '25', api_key: 'payroll', execution_count: 25 });
    expect(created.json.receiver).toBeUndefined();
    // The 201 embeds the first 20 executions; the rest by cursor.
    expect(created.json.executions as unknown[]).toHaveLength(20);
    expect(created.json.executions_next_cursor).toEqual(expect.any(String));
    const card = blocksText(
      await eventually(() => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(`${id}"`))),
    );
    expect(card).toContain('*Requested via API key* *payroll* (owner <@');
    expect(card).toContain('*Rows:* 25');

    const read = await api.call('GET', `/requests/${id}`, { token });
    expect(read.json).toMatchObject({ id, state: 'pending', execution_count: 25, executions_next_cursor: null });
    const executions = read.json.executions as Array<{ id: string; state: string; row: { number: number } }>;
    expect(executions.map((e) => e.id)).toEqual(Array.from({ length: 25 }, (_, i) => `${id}.${i + 1}`));
    expect(executions[6]).toEqual({
      id: `${id}.7`,
      state: 'queued',
      row: { number: 7, destination: known[6], amount: '1', reference: 'INV-7' },
    });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = await api.call('GET', `/requests/${id}/executions?limit=10${q}`, { token });
      expect(page.status).toBe(200);
      seen.push(...(page.json.data as Array<{ id: string }>).map((e) => e.id));
      cursor = page.json.next_cursor as string | null;
    } while (cursor);
    expect(seen).toEqual(executions.map((e) => e.id));
    const bad = await api.call(
      'GET',
      `/requests/R-1/executions?cursor=${String(created.json.executions_next_cursor)}`,
      {
        token,
      },
    );
    expect(bad.status).toBe(404);
  });

  it('answers every row problem at its JSON pointer with the batch file’s sentence', async () => {
    const { token, before } = await keyAndCount();
    const rows = [
      { receiver: known[0], amount: '10' },
      { receiver: known[1], amount: '12,5' },
      { receiver: 'nope', amount: '-1' },
    ];
    expect(await invalidRows(token, rows)).toEqual([
      { pointer: '/rows/1/amount', detail: expect.stringMatching(/^Row 2 amount: /) },
      { pointer: '/rows/2/receiver', detail: expect.stringMatching(/^Row 3 receiver: /) },
      {
        pointer: '/rows/2/amount',
        detail: 'Row 3 amount: -1 (the entire balance) is not allowed in a batch; write the exact amount to pay.',
      },
    ]);
    const extra = await post(token, batch([{ receiver: known[0], amount: 10, memo: 'x' }]));
    expect((extra.json.errors as Array<{ pointer: string }>).map((e) => e.pointer).sort()).toEqual([
      '/rows/0/amount',
      '/rows/0/memo',
    ]);
    const wallet = await post(token, batch(rowsOf(1), { wallet: 'nowhere' }));
    expect([wallet.status, wallet.json.code]).toEqual([400, 'unknown_wallet']);
    expect(await requestCount()).toBe(before);
  });

  it('refuses a reference holding a line break or a text-direction control with its sentence', async () => {
    const { token, before } = await keyAndCount();
    const rows = [
      { receiver: known[0], amount: '10', reference: 'INV-1\n*Amount:* 25.00' },
      { receiver: known[1], amount: '11', reference: 'INV-\u202E2' },
    ];
    expect(await invalidRows(token, rows)).toEqual([
      {
        pointer: '/rows/0/reference',
        detail:
          'Row 1 reference: the reference holds a line break (U+000A); write it on one line with visible characters only.',
      },
      {
        pointer: '/rows/1/reference',
        detail:
          'Row 2 reference: the reference holds an invisible text-direction control (U+202E); write it on one line with visible characters only.',
      },
    ]);
    expect(await requestCount()).toBe(before);
  });

  it('refuses destinations Rampart never paid, naming their rows, unless the key allows them', async () => {
    const { token } = await newKey(api);
    const fresh = addresses(2, 9);
    const rows = [{ receiver: known[0], amount: '1' }, ...fresh.map((receiver) => ({ receiver, amount: '2' }))];
    const refused = await post(token, batch(rows));
    expect([refused.status, refused.json.code]).toEqual([403, 'new_destination_not_allowed']);
    expect(refused.json.detail).toContain('rows 2 and 3 pay a new one');
    expect((refused.json.errors as Array<{ pointer: string }>).map((e) => e.pointer)).toEqual([
      '/rows/1/receiver',
      '/rows/2/receiver',
    ]);
    const open = await newKey(api, { limits: { allowNewDestinations: true } });
    const created = await post(open.token, batch(rows));
    expect(created.status).toBe(201);
    expect(created.json.new_destination).toBe(true);
    const id = String(created.json.id);
    const card = blocksText(
      await eventually(() => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(`${id}"`))),
    );
    expect(card).toContain('*new destination via API*');
  });

  it('bounds the batch’s total by --max-amount and counts a batch once against --max-open', async () => {
    const { token } = await newKey(api, { limits: { maxAmount: '100', maxOpen: 2 } });
    const over = await post(token, batch(rowsOf(3, '40')));
    expect([over.status, over.json.code]).toEqual([403, 'amount_over_key_limit']);
    expect(over.json.errors).toEqual([{ pointer: '/rows', detail: expect.stringContaining('total, 120') }]);
    expect((await post(token, batch(rowsOf(5, '20')))).status).toBe(201);
    expect((await post(token, transfer({ amount: '5' }))).status).toBe(400); // a transfer body is no batch
    expect((await api.call('POST', '/transfers', { token, idempotencyKey: `t-${++n}`, body: transfer() })).status).toBe(
      201,
    );
    const third = await post(token, batch(rowsOf(2, '5')));
    expect([third.status, third.json.code]).toEqual([403, 'too_many_open']);
  });

  it('makes exactly one of 8 batches sent at the same moment under --max-open 1, refusing 7 with too_many_open', async () => {
    const { token } = await newKey(api, { limits: { maxOpen: 1 } });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(token, batch(rowsOf(2, String(i + 1))))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.json.code])).toEqual(
      Array.from({ length: 7 }, () => [403, 'too_many_open']),
    );
  });

  it('makes one batch and one card from 20 concurrent attempts with one Idempotency-Key', async () => {
    const { token, before } = await keyAndCount();
    const body = batch(rowsOf(4, '3'));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.call('POST', '/batches', { token, idempotencyKey: 'burst', body })),
    );
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.json.id));
    expect(ids.size).toBe(1);
    expect(await requestCount()).toBe(before + 1);
    const [id] = [...ids] as string[];
    const replay = await api.call('POST', '/batches', { token, idempotencyKey: 'burst', body });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.json.id]).toEqual([201, 'true', id]);
    const changed = await api.call('POST', '/batches', { token, idempotencyKey: 'burst', body: batch(rowsOf(4, '4')) });
    expect([changed.status, changed.json.code]).toEqual([422, 'idempotency_key_reused']);
    await eventually(() => cardsFor(id ?? '') > 0, 10_000, 'card');
    await quiescent(h);
    expect(cardsFor(id ?? '')).toBe(1);
    expect(await requestCount()).toBe(before + 1);
  });
});
