/**
 * How every kind of failure maps to a ServiceError: purpose-built node:http servers on port 0
 * for odd answers, the sandbox's fault knobs for failures of the real operations.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ServiceClient, type ServiceClientOptions } from '../../src/service/client.js';
import type { TransferRequest } from '../../src/service/schemas.js';

const API_KEY = 'errors-test-key';
const OPS = 'wal_ops_7f3a';
const TRANSFER: TransferRequest = {
  wallet_id: OPS,
  amount: 100,
  receiver: '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68',
  asset: 'base:usdc',
};
const WALLET = {
  id: OPS,
  reference: 'r',
  is_active: true,
  address: { evm: '0x0', svm: 'x' },
  transfer: true,
  swap: true,
  offramp: true,
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function clientFor(baseUrl: string, options: Partial<ServiceClientOptions> = {}): ServiceClient {
  const client = new ServiceClient({ baseUrl, apiKey: API_KEY, retryBaseDelayMs: 1, ...options });
  cleanups.push(() => client.close());
  return client;
}

/** A server that answers every request with one fixed status, content type and body. */
async function answering(status: number, body: string, contentType = 'application/json'): Promise<string> {
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': contentType }).end(body);
  });
  return listen(server);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const envelope = (status: number, message: string) =>
  JSON.stringify({ success: false, status, message, timestamp: new Date().toISOString() });

/** What a refusal carries: the service's status and its message, said to the person as it is. */
const refusal = (status: number, serviceMessage: string) => ({ code: 'SERVICE_REJECTED', status, serviceMessage });

describe('answers that are not success', () => {
  it('401 is a refusal carrying the status and the service message', async () => {
    const client = clientFor(await answering(401, envelope(401, 'invalid key')));
    await expect(client.getWallet(OPS)).rejects.toMatchObject({
      ...refusal(401, 'invalid key'),
      name: 'ServiceError',
      operation: 'getWallet',
      mayHaveReached: true,
    });
  });

  it('404 is a refusal carrying the service message', async () => {
    const client = clientFor(await answering(404, envelope(404, 'wallet not found')));
    await expect(client.getBalances(OPS)).rejects.toMatchObject(refusal(404, 'wallet not found'));
  });

  it('500 with an HTML page is "unavailable", without a service message', async () => {
    const client = clientFor(await answering(500, '<html><body>Oops</body></html>', 'text/html'), { readRetries: 0 });
    const error = await client.getWallet(OPS).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 500, mayHaveReached: true });
    expect(error).toHaveProperty('serviceMessage', undefined);
  });

  it('200 with success=false is a refusal with the envelope status', async () => {
    const client = clientFor(await answering(200, envelope(400, 'wallet frozen')));
    await expect(client.transfer(TRANSFER)).rejects.toMatchObject({
      ...refusal(400, 'wallet frozen'),
      mayHaveReached: true,
    });
  });

  it('a success body of the wrong shape is a bad response naming the field', async () => {
    const body = { success: true, status: 200, message: 'ok', timestamp: 'now', data: { ...WALLET, is_active: 'yes' } };
    const client = clientFor(await answering(200, JSON.stringify(body)));
    await expect(client.getWallet(OPS)).rejects.toMatchObject({
      code: 'SERVICE_BAD_RESPONSE',
      message: expect.stringContaining('data.is_active'),
    });
  });

  it('a 200 body that is not JSON is a bad response', async () => {
    const client = clientFor(await answering(200, 'OK', 'text/plain'));
    await expect(client.getWallet(OPS)).rejects.toMatchObject({
      code: 'SERVICE_BAD_RESPONSE',
      message: expect.stringContaining('not JSON'),
    });
  });
});

describe('transport failures', () => {
  it('connection refused: unavailable, and the request never reached the service', async () => {
    const server = createServer();
    const url = await listen(server);
    await new Promise<void>((resolve) => server.close(() => resolve())); // nothing listens on the port now
    const client = clientFor(url);
    await expect(client.transfer(TRANSFER)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      operation: 'transfer',
      mayHaveReached: false,
    });
  });
});

describe('with the sandbox fault knobs', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({ apiKey: API_KEY });
    cleanups.push(() => sandbox.close());
  });
  const calls = (path: string) => sandbox.state.received.filter((r) => r.path === path).length;

  it('a transfer that is applied but never answered times out with mayHaveReached true', async () => {
    sandbox.faults.hangAfterApply('/transfer');
    const client = clientFor(sandbox.url, { responseTimeoutMs: 200 });
    await expect(client.transfer(TRANSFER)).rejects.toMatchObject({
      code: 'SERVICE_TIMEOUT',
      operation: 'transfer',
      mayHaveReached: true,
    });
    // The service did act: exactly why a timed-out transfer must not be retried blindly.
    expect(sandbox.state.balanceOf(OPS, 'base:usdc')?.available).toBe(119_900.5);
  });

  it('reads retry transient failures: two 500s, then success on the third call', async () => {
    sandbox.faults.failNext('/balances', 2);
    const client = clientFor(sandbox.url);
    await expect(client.getBalances(OPS)).resolves.toHaveLength(4);
    expect(calls('/balances')).toBe(3);
  });

  it('reads give up after their retries', async () => {
    sandbox.faults.failNext('/wallet', 5, { status: 503, body: 'empty' });
    const client = clientFor(sandbox.url, { readRetries: 2 });
    await expect(client.getWallet(OPS)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(calls('/wallet')).toBe(3);
  });

  it('a transfer is never retried: one 5xx, one call, nothing moved', async () => {
    sandbox.faults.failNext('/transfer', 1, { status: 502, body: 'html' });
    const client = clientFor(sandbox.url);
    await expect(client.transfer(TRANSFER)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 502,
      mayHaveReached: true,
    });
    expect(calls('/transfer')).toBe(1);
    expect(sandbox.state.balanceOf(OPS, 'base:usdc')?.available).toBe(120_000.5);
  });

  it('an offramp is never retried either', async () => {
    sandbox.faults.failNext('/offramp', 1);
    const client = clientFor(sandbox.url);
    const request = { wallet_id: OPS, amount: 1, beneficiary_id: 'ben_x', asset: 'bsc:cngn' as const };
    await expect(client.offramp(request)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 500 });
    expect(calls('/offramp')).toBe(1);
  });

  it('an injected JSON 5xx carries the service message', async () => {
    sandbox.faults.failNext('/rate/onramp', 1);
    const client = clientFor(sandbox.url, { readRetries: 0 });
    await expect(client.getOnrampRate('NGN')).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      serviceMessage: 'internal error (injected by the sandbox)',
    });
  });
});
