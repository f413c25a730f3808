/**
 * `rampart resolve` (issue 19): the same use case as /resolve, against a real Redis. A request
 * is driven to `unknown` through the store's own compare-and-sets, as a worker would leave it.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHash, type SealedRequest, type ServiceCall } from '../../src/domain/request.js';
import { ControlStore } from '../../src/store/controls.js';
import { RequestStore } from '../../src/store/requests.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-resolve-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix, APPROVERS: 'U0APPROVER1,U0APPROVER2,S0GROUP' };
let redis: Redis;
let store: RequestStore;
const subject = { walletId: 'wal_ops_7f3a', code: 'USDC' };

const call: ServiceCall = {
  kind: 'transfer',
  body: {
    wallet_id: 'wal_ops_7f3a',
    amount: 25,
    receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
    asset: 'base:usdc',
  },
};

/** pending → approved (the vote books velocity) → executing → unknown. */
async function unknownRequest(): Promise<string> {
  const id = await store.nextId();
  const frozen: SealedRequest = {
    id,
    call,
    display: { walletAlias: 'ops', chain: 'base' },
    requester: 'U0REQUESTER',
    reason: 'vendor invoice 7',
    createdAt: Date.now(),
    expiresAt: Date.now() + 86_400_000,
    requiredApprovals: 1,
    rule: '1 approval',
    hash: callHash(call),
  };
  await store.create(frozen);
  await redis.zadd(new ControlStore(redis, prefix).ledgerKey(subject), Date.now(), id);
  expect(await store.vote(id, 'U0APPROVER1')).toBe('approved');
  const started = await store.executions.start(id, 'test-worker');
  if (!started.token) throw new Error('not started');
  expect((await store.executions.finish(id, started.token, 'unknown', { message: 'HTTP 500' })).ok).toBe(true);
  return id;
}

const ledgerHas = async (id: string) =>
  (await redis.zscore(new ControlStore(redis, prefix).ledgerKey(subject), id)) !== null;

beforeAll(() => {
  redis = new Redis(REDIS_URL);
  store = new RequestStore(redis, prefix);
});
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

describe('rampart resolve', () => {
  it('records not-paid for an approver other than the requester: failed, velocity given back', async () => {
    const id = await unknownRequest();
    expect(await ledgerHas(id)).toBe(true);
    const r = await cli(['resolve', id, 'not-paid', 'no', 'debit', 'on', 'ops', '--as', 'U0APPROVER2'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${id}.1 is recorded as not paid (failed)`);
    expect((await store.get(id))?.state).toBe('failed');
    expect(await ledgerHas(id)).toBe(false);
    const history = await store.history(id);
    expect(history.map((e) => e.event)).toEqual(expect.arrayContaining(['unknown', 'failed']));
    expect(history.at(-1)).toMatchObject({ event: 'failed', by: 'U0APPROVER2' });
    // Exactly once: a second resolution is refused with one line.
    const again = await cli(['resolve', `${id}.1`, 'paid', '0xabcdef12', '--as', 'U0APPROVER1'], env);
    expect(again.code).toBe(1);
    expect(lines(again.stderr)).toEqual([
      `rampart: ${id}.1 already failed; only an outcome-unknown payment can be resolved, so nothing changed.`,
    ]);
    expect((await store.history(id)).filter((e) => e.event === 'failed')).toHaveLength(1);
    // The audit trail: who and when, beside the unknown that stays.
    const audit = await cli(['audit', 'export', '--format', 'jsonl'], env);
    expect(audit.code).toBe(0);
    const row = audit.stdout
      .split('\n')
      .filter(Boolean)
      .map(
        (l) =>
          JSON.parse(l) as { id: string; state: string; outcome: unknown; history: { event: string; by?: string }[] },
      )
      .find((r) => r.id === id);
    expect(row?.state).toBe('failed');
    expect(row?.outcome).toMatchObject({ resolution: { by: 'U0APPROVER2', paid: false, at: expect.any(String) } });
    expect(row?.history.map((e) => e.event)).toEqual(expect.arrayContaining(['unknown', 'failed']));
    expect(row?.history.find((e) => e.event === 'failed')?.by).toBe('U0APPROVER2');
  });

  it('records paid as succeeded, keeping the velocity amount, with --json', async () => {
    const id = await unknownRequest();
    const r = await cli(['resolve', `${id}.1`, 'paid', '0xfeedbeef01', '--as', 'U0APPROVER1', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ executionId: `${id}.1`, state: 'succeeded', by: 'U0APPROVER1' });
    expect((await store.get(id))?.outcome).toMatchObject({ hash: '0xfeedbeef01', resolution: { paid: true } });
    expect(await ledgerHas(id)).toBe(true);
  });

  it('refuses wrong input with one line: usage problems exit 2, the rest exit 1', async () => {
    const id = await unknownRequest();
    const cases: [string[], number, string][] = [
      [['resolve', id, 'paid', '0xabcdef12', '--as', 'U0REQUESTER'], 1, 'is not listed by id in APPROVERS'],
      [['resolve', 'R-99999.1', 'paid', '0xabcdef12', '--as', 'U0APPROVER1'], 1, 'There is no request R-99999'],
      [['resolve', id, 'paid', '--as', 'U0APPROVER1'], 2, 'Add the transaction hash'],
      [['resolve', id, 'not-paid', '--as', 'U0APPROVER1'], 2, 'Say why'],
      [['resolve', 'R-1:1', 'paid', '0xabcdef12', '--as', 'U0APPROVER1'], 2, 'is not a request id'],
      [['resolve', id, 'paid', '0xabcdef12', '--as', 'nobody'], 2, 'is not a Slack user id'],
    ];
    for (const [argv, code, expected] of cases) {
      const r = await cli(argv, env);
      expect(r.code, argv.join(' ')).toBe(code);
      expect(lines(r.stderr)[0], argv.join(' ')).toContain(expected);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await store.get(id))?.state).toBe('unknown');
  });
});
