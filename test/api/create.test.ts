/**
 * POST /api/v1/transfers and /offramps on loopback: keys (missing, wrong, revoked,
 * expired, owner deactivated, wrong scope), the key's limits, the modal's field sentences with
 * JSON pointers, and the HTTP limits (415, 413, slow body, deep JSON, 429).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRate } from '../../src/domain/rate.js';
import { APPROVALS, blocksText, cardFor, eventually, type Harness, PEOPLE, startHarness } from '../support/harness.js';
import { RECEIVER, SOLANA_RECEIVER } from '../support/requests.js';
import { type Api, newKey, startApi, transfer } from './support.js';

let h: Harness;
let api: Api;
let clock = Date.now();
beforeAll(async () => {
  h = await startHarness('api-create', { API_RATE: 'off' });
  api = await startApi(h, { now: () => clock, body: { timeoutMs: 500 } });
  await h.rampart.deps.store.addPayee('base', RECEIVER);
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

let n = 0;
const post = (token: string, body: unknown, path = '/transfers') =>
  api.call('POST', path, { token, idempotencyKey: `k-${++n}`, body });

describe('API keys', () => {
  it('answers 401 without a key, with a wrong one, a revoked one and an expired one', async () => {
    const { token, key } = await newKey(api, { lifetimeMs: 60_000 });
    expect((await api.call('POST', '/transfers', { idempotencyKey: 'a', body: transfer() })).json.code).toBe(
      'unauthorized',
    );
    const wrong = `${token.slice(0, -4)}AAAA`;
    expect((await post(wrong, transfer())).status).toBe(401);
    expect((await post('rmp_nonsense', transfer())).status).toBe(401);
    expect((await post(token, transfer())).status).toBe(201);
    clock += 60_001;
    const expired = await post(token, transfer());
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('Bearer');
    const other = await newKey(api);
    await api.deps.keys.revoke(other.key.id, clock);
    expect((await post(other.token, transfer())).status).toBe(401);
    expect(key.id).not.toBe(other.key.id);
  });

  it('stores only the hash of the key, never the key', async () => {
    const { token, key } = await newKey(api);
    const stored = await h.rampart.redis.hgetall(`${h.prefix}:apikey:${key.id}`);
    expect(JSON.stringify(stored)).not.toContain(token.slice(17));
    expect(token).toMatch(/^rmp_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  });

  it('answers 401 once the owner is deactivated in Slack, asking Slack at most every 5 minutes', async () => {
    const { token } = await newKey(api, { owner: PEOPLE.outsider });
    expect((await post(token, transfer())).status).toBe(201);
    const person = h.fake.person(PEOPLE.outsider);
    if (!person) throw new Error('no such person in the fake');
    person.deleted = true;
    const asked = h.fake.callsTo('users.info').length;
    expect((await post(token, transfer())).status).toBe(201); // cached for 5 min
    expect(h.fake.callsTo('users.info').length).toBe(asked);
    clock += 5 * 60_000;
    expect((await post(token, transfer())).status).toBe(401);
    person.deleted = false;
  });

  it('answers 403 for a missing scope', async () => {
    const { token } = await newKey(api, { scopes: ['requests:read'] });
    const a = await post(token, transfer());
    expect(a.status).toBe(403);
    expect(a.json.code).toBe('missing_scope');
  });
});

describe('creating', () => {
  it('answers 201 pending, and the card names the key and its owner', async () => {
    const { token } = await newKey(api, { name: 'erp-card' });
    const a = await post(token, transfer({ amount: '12.5' }));
    expect(a.status).toBe(201);
    expect(a.json).toMatchObject({
      state: 'pending',
      amount: '12.5',
      requester: PEOPLE.requester,
      api_key: 'erp-card',
    });
    const card = await eventually(() => cardFor(h.fake, String(a.json.id)), 10_000, 'card');
    expect(blocksText(card)).toContain(`*Requested via API key* *erp-card* (owner <@${PEOPLE.requester}>)`);
    expect(blocksText(card)).not.toContain('new destination via API');
  });

  it("refuses what the key's limits forbid: wallet, asset, amount and open requests", async () => {
    const { token } = await newKey(api, {
      limits: { wallets: ['ops'], assets: ['base:usdc'], maxAmount: '100', maxOpen: 2 },
    });
    const codes = async (body: unknown) => {
      const a = await post(token, body);
      return [a.status, a.json.code];
    };
    expect(await codes(transfer({ wallet: 'treasury', asset: 'ethereum:usdc' }))).toEqual([403, 'wallet_not_allowed']);
    expect(await codes(transfer({ asset: 'solana:usdc', receiver: SOLANA_RECEIVER }))).toEqual([
      403,
      'asset_not_allowed',
    ]);
    expect(await codes(transfer({ amount: '100.01' }))).toEqual([403, 'amount_over_key_limit']);
    expect(await codes(transfer({ amount: '100' }))).toEqual([201, undefined]);
    expect(await codes(transfer())).toEqual([201, undefined]);
    expect(await codes(transfer())).toEqual([403, 'too_many_open']);
  });

  it('creates exactly one of 8 concurrent requests under --max-open 1 and refuses the other 7 alike', async () => {
    const { token, key } = await newKey(api, { limits: { maxOpen: 1 } });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(token, transfer({ amount: String(10 + i) }))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refusals = answers.filter((a) => a.status !== 201).map((a) => [a.status, a.json.code]);
    expect(refusals).toEqual(Array.from({ length: 7 }, () => [403, 'too_many_open']));
    const store = h.rampart.deps.store;
    const made = await Promise.all((await store.recentIds(1000)).map((id) => store.get(id)));
    expect(made.filter((r) => r?.sealed.display.viaApi?.keyId === key.id)).toHaveLength(1);
  });

  it('refuses every create with a key whose stored limit cannot be read, telling the operator to recreate it', async () => {
    const before = (await h.rampart.deps.store.recentIds(1000)).length;
    const corruptions: Array<Record<string, unknown>> = [
      { maxAmount: '100.0000001' },
      { maxAmount: '0' },
      { maxAmount: 'lots' },
      { maxOpen: 'x' },
      { allowNewDestinations: 'yes' },
    ];
    for (const corruption of corruptions) {
      const { token, key } = await newKey(api, { limits: { maxAmount: '100' } });
      const field = `${h.prefix}:apikey:${key.id}`;
      const stored = JSON.parse((await h.rampart.redis.hget(field, 'key')) ?? '{}') as { limits: object };
      await h.rampart.redis.hset(
        field,
        'key',
        JSON.stringify({ ...stored, limits: { ...stored.limits, ...corruption } }),
      );
      const a = await post(token, transfer({ amount: '150' }));
      expect([a.status, a.json.code], JSON.stringify(corruption)).toEqual([403, 'key_limits_unreadable']);
      expect(a.json.detail).toContain('rampart api-keys create');
    }
    expect((await h.rampart.deps.store.recentIds(1000)).length).toBe(before);
  });

  it('refuses a destination Rampart never paid unless the key allows new ones, then the card says so', async () => {
    const fresh = '0x1111111111111111111111111111111111111111';
    const strict = await newKey(api);
    const a = await post(strict.token, transfer({ receiver: fresh }));
    expect([a.status, a.json.code]).toEqual([403, 'new_destination_not_allowed']);
    const open = await newKey(api, { limits: { allowNewDestinations: true } });
    const b = await post(open.token, transfer({ receiver: fresh }));
    expect(b.status).toBe(201);
    expect(b.json.new_destination).toBe(true);
    const card = await eventually(() => cardFor(h.fake, String(b.json.id)), 10_000, 'card');
    expect(blocksText(card)).toContain('*new destination via API*');
  });

  it('refuses transfers and batches with 409 frozen while frozen, keeping no answer: the same key creates once unfrozen', async () => {
    const { token } = await newKey(api);
    const controls = h.rampart.deps.controls;
    await controls.setFreeze({ by: PEOPLE.approver1, at: clock, reason: 'incident drill' });
    const rows = [{ receiver: RECEIVER, amount: '1', reference: 'INV-1' }];
    const batch = { kind: 'transfers', wallet: 'ops', asset: 'base:usdc', rows, reason: 'run' };
    try {
      const single = await api.call('POST', '/transfers', { token, idempotencyKey: 'frozen-1', body: transfer() });
      expect([single.status, single.json.code]).toEqual([409, 'frozen']);
      expect(single.json.detail).toBe(
        'Rampart is frozen by an operator; no new payments are taken until it is unfrozen.',
      );
      const many = await api.call('POST', '/batches', { token, idempotencyKey: 'frozen-2', body: batch });
      expect([many.status, many.json.code]).toEqual([409, 'frozen']);
    } finally {
      await h.rampart.redis.del(controls.freezeKey);
    }
    const after = await api.call('POST', '/transfers', { token, idempotencyKey: 'frozen-1', body: transfer() });
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses bad fields with the modal’s sentence and a JSON pointer', async () => {
    const { token } = await newKey(api);
    const refusal = async (body: unknown) => {
      const a = await post(token, body);
      expect(a.status).toBe(400);
      return a.json.errors as Array<{ pointer: string; detail: string }>;
    };
    expect(await refusal(transfer({ memo: 'x' }))).toEqual([
      { pointer: '/memo', detail: expect.stringContaining('"memo" is not a field of a transfer') },
    ]);
    expect(await refusal(transfer({ amount: 'ten' }))).toEqual([
      { pointer: '/amount', detail: '"ten" is not an amount; write a positive number such as 250 or 12.5.' },
    ]);
    expect(await refusal(transfer({ amount: 25 }))).toEqual([
      { pointer: '/amount', detail: expect.stringContaining('amount must be a string holding the exact decimal') },
    ]);
    expect(await refusal(transfer({ amount: '12,50' }))).toEqual([
      {
        pointer: '/amount',
        detail:
          '"12,50" is not an amount: a comma may only group thousands (1,250.50); use a point for decimals, e.g. 12.50.',
      },
    ]);
    expect(await refusal(transfer({ amount: '-1' }))).toEqual([
      { pointer: '/amount', detail: '"-1" is not an amount; write a positive number such as 250 or 12.5.' },
    ]);
    const wallet = await post(token, transfer({ wallet: 'nowhere' }));
    expect(wallet.json).toMatchObject({ code: 'unknown_wallet', errors: [{ pointer: '/wallet' }] });
    expect(h.fake.messages(APPROVALS).some((m) => blocksText(m).includes('"ten"'))).toBe(false);
  });

  it('asks for an Idempotency-Key on every POST', async () => {
    const { token } = await newKey(api);
    const a = await api.call('POST', '/transfers', { token, body: transfer() });
    expect([a.status, a.json.code]).toEqual([400, 'missing_idempotency_key']);
  });
});

describe('HTTP limits', () => {
  it('answers 415 for a body that is not JSON, 413 over 1 MB, 400 for JSON nested 10,000 deep', async () => {
    const { token } = await newKey(api);
    const form = await api.call('POST', '/transfers', {
      token,
      idempotencyKey: 'f',
      raw: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.json.code]).toEqual([415, 'unsupported_media_type']);
    const big = await api.call('POST', '/transfers', {
      token,
      idempotencyKey: 'b',
      raw: JSON.stringify(transfer({ reason: 'x'.repeat(2 * 1_048_576) })),
    });
    expect([big.status, big.json.code]).toEqual([413, 'too_large']);
    const deep = await api.call('POST', '/transfers', {
      token,
      idempotencyKey: 'd',
      raw: `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    });
    expect([deep.status, deep.json.code]).toEqual([400, 'too_deep']);
  });

  it('cuts off a body that arrives too slowly (408)', async () => {
    const { token } = await newKey(api);
    const url = new URL(api.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/transfers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nIdempotency-Key: slow\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"wal`,
        );
      });
      let text = '';
      socket.on('data', (d) => {
        text += d.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":"body_timeout"');
  });

  it('answers 429 with Retry-After past the key’s rate', async () => {
    const rate = parseRate('1/m burst 2');
    if (!rate || typeof rate === 'string') throw new Error('bad rate');
    const limited = await startApi(h, { rate });
    try {
      const { token } = await newKey(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.call('GET', '/requests', { token })).status);
      expect(statuses).toEqual([200, 200, 429]);
      const last = await limited.call('GET', '/requests', { token });
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last.json.code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});
