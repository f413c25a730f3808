/**
 * The sandbox over raw HTTP: envelope, auth, validation messages, query parameter names,
 * exact amounts and the received-request log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

const KEY = 'sandbox-test-key';
const BEARER = 'sandbox-test-bearer';
const OPS = 'wal_ops_7f3a';
const RECEIVER = '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68';

let sandbox: Sandbox;
const started: Sandbox[] = [];
async function start(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const s = await startSandbox({ apiKey: KEY, bearerToken: BEARER, ...options });
  started.push(s);
  return s;
}
beforeEach(async () => {
  sandbox = await start();
});
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

interface Answer {
  status: number;
  body: { success: boolean; status: number; message: string; timestamp: string; data?: unknown };
}
async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const init: RequestInit = { method, headers: { 'x-service-key': KEY, ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${sandbox.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}
const post = (path: string, body: unknown, headers?: Record<string, string>) => call('POST', path, body, headers);
const get = (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers);

describe('envelope (spec 2.1)', () => {
  it('a success carries success, status, message, an ISO timestamp and data', async () => {
    const { status, body } = await get(`/wallet?wallet_id=${OPS}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, status: 200, message: expect.any(String), data: { id: OPS } });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it('POST /identity and POST /beneficiary answer 201 in the HTTP status and the envelope', async () => {
    const identity = await post('/identity', {
      type: 'BVN',
      name: 'A B',
      details: { bvn: '12345678901', dob: '01-01-1990' },
    });
    expect([identity.status, identity.body.status]).toEqual([201, 201]);
    expect(identity.body.data).toEqual({ id: expect.stringMatching(/^idn_/), link: null });
    const id = (identity.body.data as { id: string }).id;
    const details = {
      bank_address: { house_no: 1, street: 'S', city: 'C', state: 'ST', postal_code: 'P', country: 'GB' },
    };
    const beneficiary = await post('/beneficiary', { currency: 'NGN', identity_id: id, details });
    expect([beneficiary.status, beneficiary.body.status]).toEqual([201, 201]);
    expect(sandbox.state.beneficiaries.get((beneficiary.body.data as { id: string }).id)?.identityId).toBe(id);
  });

  it('a refusal is { success: false, status, message, timestamp } with the same HTTP status', async () => {
    const { status, body } = await get('/wallet?wallet_id=wal_nope');
    expect(status).toBe(404);
    expect(body).toEqual({
      success: false,
      status: 404,
      message: 'wallet wal_nope not found',
      timestamp: expect.any(String),
    });
  });

  it('an unknown path or method is a 404', async () => {
    expect((await get('/wallets')).body).toMatchObject({ status: 404, message: 'no operation GET /wallets' });
    expect((await post('/wallet', {})).status).toBe(404);
  });
});

describe('auth (spec 5)', () => {
  it('the nine operations need x-service-key', async () => {
    const res = await fetch(`${sandbox.url}/balances?wallet_id=${OPS}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'missing x-service-key header' });
    expect((await get(`/balances?wallet_id=${OPS}`, { 'x-service-key': 'nope' })).body.message).toBe(
      'invalid x-service-key',
    );
  });

  it('POST /user needs the Bearer token, not the service key', async () => {
    const user = { email: 'a@example.com', password: 'p', name: 'A' };
    expect((await post('/user', user)).body).toMatchObject({
      status: 401,
      message: 'missing Authorization: Bearer token',
    });
    const ok = await post('/user', user, { authorization: `Bearer ${BEARER}` });
    expect(ok.body).toMatchObject({ status: 200, data: { code: expect.any(Number), key: expect.any(String) } });
  });

  it('without a configured bearer token every POST /user is refused', async () => {
    sandbox = await start({ bearerToken: undefined });
    const res = await post(
      '/user',
      { email: 'a@example.com', password: 'p', name: 'A' },
      { authorization: 'Bearer x' },
    );
    expect(res.body).toMatchObject({ status: 401, message: 'invalid bearer token' });
  });
});

describe('validation with the client schemas', () => {
  const transfer = (patch: Record<string, unknown>) =>
    post('/transfer', { wallet_id: OPS, amount: 1, receiver: RECEIVER, asset: 'base:usdc', ...patch });

  it('names the field of an invalid body', async () => {
    expect((await transfer({ amount: 0 })).body.message).toMatch(/^amount: must be more than zero/);
    expect((await transfer({ asset: 'ethereum:cngn' })).body).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^asset: /),
    });
    expect((await transfer({ memo: 'x' })).status).toBe(400);
  });

  it('refuses a body that is not JSON', async () => {
    expect((await post('/transfer', '{not json')).body).toMatchObject({
      status: 400,
      message: 'body is not valid JSON',
    });
  });

  it('refuses an amount finer than the asset decimals instead of rounding it', async () => {
    expect((await transfer({ amount: 0.0000001 })).body).toMatchObject({
      status: 400,
      message: expect.stringMatching(/decimal places/),
    });
  });

  it('moves amounts exactly: 0.1 then 0.2 leaves exactly 0.3 less', async () => {
    await transfer({ amount: 0.1 });
    await transfer({ amount: 0.2 });
    expect(sandbox.state.balanceOf(OPS, 'base:usdc')).toEqual({ balance: 125_400.2, available: 120_000.2, debt: 0 });
  });

  it('lookup needs bank_code, account_number and currency; an unknown account is a 404', async () => {
    const full = { bank_code: '044', account_number: '1234567890', currency: 'ngn' };
    expect((await post('/lookup', full)).body.data).toMatchObject({ account_name: 'LAGOS LOGISTICS LTD' });
    for (const field of ['bank_code', 'account_number', 'currency']) {
      const { [field]: _gone, ...rest } = full as Record<string, string>;
      expect((await post('/lookup', rest)).body).toMatchObject({
        status: 400,
        message: expect.stringContaining(field),
      });
    }
    expect((await post('/lookup', { ...full, account_number: '0000000000' })).body).toMatchObject({
      status: 404,
      message: 'account not found',
    });
  });
});

describe('query parameters', () => {
  it('rate currency is case-insensitive; an unknown currency is a 400', async () => {
    for (const c of ['NGN', 'ngn', 'Ngn'])
      expect((await get(`/rate/onramp?currency=${c}`)).body.data).toEqual({ rate: 1532.75 });
    expect((await get('/rate/onramp?currency=usd')).status).toBe(400);
    expect((await get('/rate/onramp')).body.message).toBe('currency: query parameter is required');
  });

  it('the parameter names are configurable', async () => {
    sandbox = await start({ params: { wallet: 'id', balances: 'wallet', identity: 'identity', rate: 'code' } });
    expect((await get(`/wallet?id=${OPS}`)).status).toBe(200);
    expect((await get(`/wallet?wallet_id=${OPS}`)).body.message).toBe('id: query parameter is required');
    expect((await get(`/balances?wallet=${OPS}`)).status).toBe(200);
    expect((await get('/rate/onramp?code=ngn')).status).toBe(200);
  });
});

describe('state', () => {
  it('logs every request with method, path, query, body and time, refused ones included', async () => {
    await get(`/balances?wallet_id=${OPS}`, { 'x-service-key': 'wrong' });
    await post('/lookup', { bank_code: '058' });
    expect(sandbox.state.received).toEqual([
      { method: 'GET', path: '/balances', query: { wallet_id: OPS }, body: undefined, at: expect.any(String) },
      { method: 'POST', path: '/lookup', query: {}, body: { bank_code: '058' }, at: expect.any(String) },
    ]);
  });

  it('can be seeded with other wallets, accounts and rates', async () => {
    sandbox = await start({
      seed: {
        wallets: [],
        accounts: [{ bankCode: '011', bankName: 'First Bank', accountNumber: '3000000001', accountName: 'X' }],
        rates: { ngn: 1600 },
      },
    });
    expect((await get(`/wallet?wallet_id=${OPS}`)).status).toBe(404);
    expect((await get('/rate/onramp?currency=NGN')).body.data).toEqual({ rate: 1600 });
    const found = await post('/lookup', { bank_code: '011', account_number: '3000000001', currency: 'ngn' });
    expect(found.body.data).toMatchObject({ bank_name: 'First Bank' });
  });
});
