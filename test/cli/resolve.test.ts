/**
^ * `rampart resolve`: the same use case as /resolve, against a real Redis. A request
 * is driven to `unknown` through the store's own compare-and-sets, as a worker would leave it.
 */

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../src/domain/request.js';
import { ControlStore } from '../../src/store/controls.js';
import { RequestStore } from '../../src/store/requests.js';
import { createSealed, transferOf } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-resolve-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix, APPROVERS: 'U0APPROVER1,U0APPROVER2,S0GROUP' };
let redis: Redis;
let store: RequestStore;
const subject = { walletId: 'wal_ops_7f3a', code: 'USDC' };

const call: ServiceCall = transferOf(25);

/** pending → approved (the vote books velocity) → executing → unknown. */
async function unknownRequest(): Promise<string> {
  const id = await createSealed(store, call, { reason: 'vendor invoice 7' });
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

const HASH = `0x${'fe'.repeat(32)}`;

describe('rampart resolve', () => {
  it('not-paid only proposes: the execution stays unknown, its velocity counted, the history says "from the CLI"', async () => {
    const id = await unknownRequest();
    expect(await ledgerHas(id)).toBe(true);
    const r = await cli(['resolve', `${id}.1`, 'not-paid', 'no', 'debit', 'on', 'ops', '--as', 'U0APPROVER2'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`You proposed that ${id}.1 was not paid. Nothing has changed yet`);
    expect((await store.get(id))?.state).toBe('unknown');
    expect(await ledgerHas(id)).toBe(true);
    const proposed = (await store.history(id)).find((e) => e.event === 'not-paid-proposed');
    expect(proposed).toMatchObject({ by: 'U0APPROVER2' });
    expect(proposed?.detail).toContain('(from the CLI)');
    const proposal = (await store.executions.get(`${id}.1`))?.proposal;
    expect(proposal).toMatchObject({ by: 'U0APPROVER2', via: 'cli' });
    // The terminal never confirms, whoever asks: one line, nothing changed.
    const confirm = await cli(['resolve', `${id}.1`, 'confirm', proposal?.id ?? '', '--as', 'U0APPROVER1'], env);
    expect(confirm.code).toBe(1);
    expect(lines(confirm.stderr)).toEqual([
      `rampart: Confirming not-paid is done on ${id}.1's card in Slack by a second approver, never from the terminal; nothing changed.`,
    ]);
    expect((await store.get(id))?.state).toBe('unknown');
    // The audit trail holds the proposal with its proposer.
    const audit = await cli(['audit', 'export', '--format', 'jsonl'], env);
    expect(audit.code).toBe(0);
    const row = audit.stdout
      .split('\n')
      .filter(Boolean)
      .map(
        (l) =>
          JSON.parse(l) as { id: string; state: string; history: { event: string; by?: string; detail?: string }[] },
      )
      .find((r) => r.id === id);
    expect(row?.state).toBe('unknown');
    expect(row?.history.find((e) => e.event === 'not-paid-proposed')).toMatchObject({ by: 'U0APPROVER2' });
  });

  it('records paid as succeeded with a hash valid for the chain, keeping the velocity amount, with --json', async () => {
    const id = await unknownRequest();
    const r = await cli(['resolve', `${id}.1`, 'paid', HASH, '--as', 'U0APPROVER1', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ executionId: `${id}.1`, state: 'succeeded', by: 'U0APPROVER1' });
    expect((await store.get(id))?.outcome).toMatchObject({ hash: HASH, resolution: { paid: true, via: 'cli' } });
    expect(await ledgerHas(id)).toBe(true);
    const succeeded = (await store.history(id)).find((e) => e.event === 'succeeded');
    expect(succeeded?.detail).toContain('(from the CLI)');
  });

  it('refuses wrong input with one line: usage problems exit 2, the rest exit 1', async () => {
    const id = await unknownRequest();
    const cases: [string[], number, string][] = [
      [['resolve', `${id}.1`, 'paid', HASH, '--as', 'U0REQUESTER'], 1, 'is not listed by id in APPROVERS'],
      [['resolve', 'R-99999.1', 'paid', HASH, '--as', 'U0APPROVER1'], 1, 'There is no request R-99999'],
      [['resolve', id, 'paid', HASH, '--as', 'U0APPROVER1'], 2, `Name the execution, e.g. ${id}.1`],
      [['resolve', `${id}.1`, 'paid', '0xabc', '--as', 'U0APPROVER1'], 1, 'is not a Base transaction hash'],
      [['resolve', `${id}.1`, 'paid', '--as', 'U0APPROVER1'], 2, 'Add the transaction hash'],
      [['resolve', `${id}.1`, 'not-paid', '--as', 'U0APPROVER1'], 2, 'Say why'],
      [['resolve', 'R-1:1', 'paid', HASH, '--as', 'U0APPROVER1'], 2, 'is not a request id'],
      [['resolve', `${id}.1`, 'paid', HASH, '--as', 'nobody'], 2, 'is not a Slack user id'],
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
