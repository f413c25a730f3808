/**
 * Balance history on a real Redis and a real service: a read that fails is a gap with a
 * reason (never a zero), a service nobody can reach likewise, and two workers taking the same
 * period read the service once per wallet.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotBalances } from '../../src/app/snapshot.js';
import { createLogger } from '../../src/log.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ServiceClient } from '../../src/service/client.js';
import { BalanceHistory } from '../../src/store/balance-history.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

const prefix = `test-snapshot-${randomUUID().slice(0, 8)}`;
const EVERY = 15 * 60_000;
const WALLETS = [
  { alias: 'ops', id: 'wal_ops_7f3a' },
  { alias: 'treasury', id: 'wal_treasury_91c2' },
];
const log = createLogger({ level: 'silent' }, new LogSink());
let redis: Redis;
let other: Redis;
let sandbox: Sandbox;
let client: ServiceClient;

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  other = new Redis(REDIS_URL);
  sandbox = await startSandbox({ apiKey: 'k' });
  client = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k', retryBaseDelayMs: 1 });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
  await redis.quit();
  await other.quit();
  await deleteKeys(prefix);
});

describe('snapshotBalances', () => {
  it('stores the balances, and a failed read as a gap with its reason, never as zero', async () => {
    const history = new BalanceHistory(redis, `${prefix}:a`);
    const at = Date.UTC(2026, 10, 2, 9, 0);
    expect(
      await snapshotBalances({ service: client, history, wallets: WALLETS, everyMs: EVERY, now: () => at, log }),
    ).toEqual({
      wallets: 2,
      gaps: 0,
    });
    const [ok] = await history.since('wal_ops_7f3a', 0);
    expect(ok?.gap).toBe(false);
    expect(ok && !ok.gap && Object.keys(ok.available).length).toBeGreaterThan(0);

    // The service answers 503 for every balances read of the next period.
    sandbox.faults.failNext('/balances', 10, { status: 503, body: 'empty' });
    const next = at + EVERY + 7_000;
    await snapshotBalances({ service: client, history, wallets: WALLETS, everyMs: EVERY, now: () => next, log });
    sandbox.faults.reset();
    const rows = await history.since('wal_ops_7f3a', 0);
    expect(rows.map((r) => r.at)).toEqual([at, at + EVERY]);
    expect(rows[1]).toEqual({ at: at + EVERY, gap: true, why: 'the service answered HTTP 503' });
  });

  it('stores a gap when the service cannot be reached at all', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const dead = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const down = new ServiceClient({ baseUrl: `http://127.0.0.1:${dead}`, apiKey: 'k', retryBaseDelayMs: 1 });
    const history = new BalanceHistory(redis, `${prefix}:b`);
    const at = Date.UTC(2026, 10, 2, 9, 0);
    const r = await snapshotBalances({ service: down, history, wallets: WALLETS, everyMs: EVERY, now: () => at, log });
    await down.close();
    expect(r).toEqual({ wallets: 2, gaps: 2 });
    for (const w of WALLETS)
      expect(await history.since(w.id, 0)).toEqual([{ at, gap: true, why: 'the service could not be reached' }]);
  });

  it('reads the service once per wallet per period however many workers run it', async () => {
    let reads = 0;
    const counting = {
      getBalances: (id: string) => {
        reads += 1;
        return client.getBalances(id);
      },
    };
    const a = new BalanceHistory(redis, `${prefix}:c`);
    const b = new BalanceHistory(other, `${prefix}:c`);
    const at = Date.UTC(2026, 10, 2, 10, 0);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        snapshotBalances({
          service: counting,
          history: i % 2 ? a : b,
          wallets: WALLETS,
          everyMs: EVERY,
          now: () => at + i,
          log,
        }),
      ),
    );
    expect(results.filter((r) => r !== 'taken')).toHaveLength(1);
    expect(reads).toBe(WALLETS.length);
    expect((await a.since('wal_ops_7f3a', 0)).map((s) => s.at)).toEqual([at]);
  });
});
