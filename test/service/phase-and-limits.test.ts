/**
 * The service client on real loopback HTTP: "never sent" is decided by the request's phase,
 * every call has a total deadline and a size cap, and echoed secrets and personal data are masked.
 * The server applies every call before it misbehaves, as a real service or gateway might.
 */
import { connect, type Socket } from 'node:net';
import { Agent, type buildConnector } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError, describeWriteFailure } from '../../src/app/describe-error.js';
import { classifyFailure } from '../../src/service/classify.js';
import { ServiceClient, type ServiceClientOptions } from '../../src/service/client.js';
import type { ServiceError } from '../../src/service/errors.js';
import type { TransferRequest } from '../../src/service/schemas.js';
import {
  type ApplyingService,
  drip,
  envelopeText,
  fixed,
  hang,
  huge,
  startApplyingService,
} from '../support/applying-service.js';

const KEY = 'phase-test-service-key-77';
const TRANSFER: TransferRequest = {
  wallet_id: 'wal_ops_7f3a',
  amount: 5,
  receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
  asset: 'base:usdc',
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function service(): Promise<ApplyingService> {
  const s = await startApplyingService();
  cleanups.push(() => s.close());
  return s;
}

function client(url: string, options: Partial<ServiceClientOptions> = {}): ServiceClient {
  const c = new ServiceClient({ baseUrl: url, apiKey: KEY, retryBaseDelayMs: 1, ...options });
  cleanups.push(() => c.close());
  return c;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as ServiceError,
  );

const unreachable = () => Object.assign(new Error('connect EHOSTUNREACH (test)'), { code: 'EHOSTUNREACH' });

/** A connector that hands out real sockets and lets the test break them later. */
function breakableConnector(failWhileConnecting = false) {
  const sockets: Socket[] = [];
  const connector: buildConnector.connector = (opts, callback) => {
    if (failWhileConnecting) {
      queueMicrotask(() => callback(unreachable(), null));
      return;
    }
    const socket = connect({ host: opts.hostname, port: Number(opts.port) });
    sockets.push(socket);
    socket.once('connect', () => callback(null, socket));
    socket.once('error', (e) => callback(e, null));
  };
  const breakAll = () => {
    for (const s of sockets) s.destroy(unreachable());
  };
  return { connector, breakAll };
}

describe('"never sent" is decided by the phase of the request', () => {
  it('EHOSTUNREACH after the body was written is ambiguous: applied once, never retried', async () => {
    const s = await service();
    const { connector, breakAll } = breakableConnector();
    s.answer = () => breakAll(); // the server has the whole body and applied it; then the route dies
    const c = client(s.url, { dispatcher: new Agent({ connect: connector }) });
    const err = await failure(c.transfer(TRANSFER));
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', mayHaveReached: true });
    expect(classifyFailure(err)).toBe('ambiguous');
    expect(s.applied('/transfer')).toBe(1);
  });

  it('EHOSTUNREACH while connecting is "never sent": nothing reached the server', async () => {
    const s = await service();
    const { connector } = breakableConnector(true);
    const c = client(s.url, { dispatcher: new Agent({ connect: connector }) });
    const err = await failure(c.transfer(TRANSFER));
    expect(err).toMatchObject({ mayHaveReached: false });
    expect(classifyFailure(err)).toBe('never-sent');
    expect(s.applied('/transfer')).toBe(0);
  });

  it('a read whose socket breaks after sending is retried (reads are idempotent)', async () => {
    const s = await service();
    const { connector, breakAll } = breakableConnector();
    s.answer = () => breakAll();
    const c = client(s.url, { dispatcher: new Agent({ connect: connector }), readRetries: 1 });
    await failure(c.getWallet('wal_ops_7f3a'));
    expect(s.applied('/wallet')).toBe(2);
  });
});

describe('a total deadline and a size cap on every call', () => {
  it('a transfer whose answer trickles one byte every 200 ms past the deadline ends ambiguous at the deadline', async () => {
    const s = await service();
    s.answer = drip(200);
    const c = client(s.url, { connectTimeoutMs: 200, responseTimeoutMs: 800 });
    const started = Date.now();
    const err = await failure(c.transfer(TRANSFER));
    const took = Date.now() - started;
    expect(err).toMatchObject({ code: 'SERVICE_TIMEOUT', mayHaveReached: true });
    expect(classifyFailure(err)).toBe('ambiguous');
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(4000); // bounded: idle timers alone would wait for ever
    expect(s.applied('/transfer')).toBe(1);
  });

  it('a trickling read ends with a clear time-out sentence', async () => {
    const s = await service();
    s.answer = drip(200);
    const c = client(s.url, { connectTimeoutMs: 200, readTimeoutMs: 500, readRetries: 0 });
    const err = await failure(c.getBalances('wal_ops_7f3a'));
    expect(err.code).toBe('SERVICE_TIMEOUT');
    expect(describeError(err)).toBe(
      'The wallet service did not answer in time. Try again in a minute; if it keeps happening, tell on-call.',
    );
  });

  it('a 150 MB answer is abandoned after the cap: the client stops reading early', async () => {
    const s = await service();
    s.answer = huge(s);
    const c = client(s.url);
    const before = process.memoryUsage().rss;
    const err = await failure(c.transfer(TRANSFER));
    expect(err).toMatchObject({ code: 'SERVICE_BAD_RESPONSE', mayHaveReached: true });
    expect(err.message).toContain('larger than 1024 KiB');
    expect(classifyFailure(err)).toBe('ambiguous');
    await new Promise((r) => setTimeout(r, 100));
    // What the server could push before the client hung up: the cap plus socket buffers.
    expect(s.hugeBytesWritten).toBeLessThan(16 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    expect(s.applied('/transfer')).toBe(1);
  });

  it('a declared Content-Length over the cap is refused before reading', async () => {
    const s = await service();
    s.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(5 * 1024 * 1024) });
      res.write('{');
    };
    const c = client(s.url, { maxResponseBytes: 1024 });
    const err = await failure(c.getWallet('wal_ops_7f3a'));
    expect(err.code).toBe('SERVICE_BAD_RESPONSE');
    expect(describeError(err)).toContain('could not be read');
  });
});

describe('what counts as the service refusing', () => {
  const cases: Array<[string, Parameters<typeof fixed>]> = [
    ['500 JSON envelope', [500, envelopeText(500, 'internal error')]],
    ['502 HTML from a gateway', [502, '<html><body>Bad Gateway</body></html>', 'text/html']],
    ['504 empty', [504, '']],
    ['400 HTML (not the service envelope)', [400, '<html>Bad Request</html>', 'text/html']],
    ['200 malformed JSON', [200, '{"success": true, "data": {', 'application/json']],
    ['200 envelope reporting a 5xx', [200, envelopeText(503, 'upstream down')]],
  ];
  it.each(cases)('%s after applying is ambiguous, called once', async (_name, args) => {
    const s = await service();
    s.answer = fixed(...args);
    const err = await failure(client(s.url).transfer(TRANSFER));
    expect(classifyFailure(err)).toBe('ambiguous');
    expect(describeWriteFailure(err)).toContain('It may have reached the service.');
    expect(describeWriteFailure(err)).not.toMatch(/try again|new request|resubmit/i);
    expect(s.applied('/transfer')).toBe(1);
  });

  it.each([
    ['422 envelope', 422],
    ['200 with success=false', 200],
  ])("the service's own well-formed refusal (%s) is refused: nothing moved", async (_name, status) => {
    const s = await service();
    s.answer = fixed(status, envelopeText(422, 'insufficient balance'));
    const err = await failure(client(s.url).transfer(TRANSFER));
    expect(classifyFailure(err)).toBe('refused');
    expect(describeWriteFailure(err)).toBe('The wallet service refused it: “insufficient balance”; nothing moved.');
  });

  it('a time-out with nothing answered is ambiguous', async () => {
    const s = await service();
    s.answer = hang;
    const err = await failure(client(s.url, { responseTimeoutMs: 200 }).transfer(TRANSFER));
    expect(err.code).toBe('SERVICE_TIMEOUT');
    expect(classifyFailure(err)).toBe('ambiguous');
  });
});

describe('service text is masked before it goes anywhere', () => {
  it('an echoed key, bearer token, date of birth and BVN never survive in the error', async () => {
    const s = await service();
    s.answer = (req, res) => {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(
          envelopeText(
            400,
            `key ${String(req.headers['x-service-key'])} (token slack-bot-token-xyz) not allowed for ADA born 01-02-1990 / 1990-02-01, BVN 222 333 444 55, acct 0123-456-789`,
          ),
        );
    };
    const c = client(s.url, { secrets: ['slack-bot-token-xyz'] });
    const err = await failure(c.transfer(TRANSFER));
    const everything = `${err.message} ${err.serviceMessage} ${JSON.stringify(err)} ${describeWriteFailure(err)}`;
    for (const leak of [KEY, 'slack-bot-token-xyz', '01-02-1990', '1990-02-01', '222 333 444 55', '0123-456-789'])
      expect(everything).not.toContain(leak);
    expect(err.serviceMessage).toBe(
      'key [secret] (token [secret]) not allowed for ADA born ••-••-•••• / ••-••-••••, BVN ••••4455, acct ••••6789',
    );
  });
});
