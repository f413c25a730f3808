/**
 * `rampart audit export` over a known set of requests written by the app's own store:
 * compared row by row, personal data masked as Slack masks it, the date range respected.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHash, type SealedRequest, type ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { cli, lines } from '../cli/support.js';
import { REDIS_URL } from '../support/harness.js';
import { cleanUp, exportJsonl } from './support.js';

const prefix = `test-audit-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix };
const DAY1 = Date.UTC(2026, 10, 1, 9, 0, 0);
const DAY2 = Date.UTC(2026, 10, 2, 23, 59, 0);
const DAY3 = Date.UTC(2026, 10, 3, 0, 0, 1);
const ACCOUNT = '0123456789';
const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
let redis: Redis;
let dir: string;
let now = DAY1;
const ids: string[] = [];

const transfer: ServiceCall = {
  kind: 'transfer',
  body: { wallet_id: 'wal_ops_7f3a', amount: 250, receiver: RECEIVER, asset: 'base:usdc' },
};
const beneficiary: ServiceCall = {
  kind: 'beneficiary',
  body: {
    currency: 'ngn',
    identity_id: 'idn_42',
    details: { bank_code: '058', account_number: ACCOUNT, account_name: 'ADA OBI' },
  },
};
const offramp: ServiceCall = {
  kind: 'offramp',
  body: { wallet_id: 'wal_ops_7f3a', amount: 100, beneficiary_id: 'ben_9', asset: 'base:usdc' },
};

async function create(store: RequestStore, call: ServiceCall, reason: string): Promise<string> {
  const id = await store.nextId();
  const sealed: SealedRequest = {
    id,
    call,
    display: call.kind === 'beneficiary' ? { beneficiaryLabel: `GTBank ••••${ACCOUNT.slice(-4)}` } : {},
    requester: 'U0REQUESTER',
    reason,
    createdAt: now,
    expiresAt: now + 86_400_000,
    requiredApprovals: 1,
    rule: '1 approval',
    hash: callHash(call),
  };
  await store.create(sealed);
  ids.push(id);
  return id;
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  dir = await mkdtemp(join(tmpdir(), 'rampart-audit-'));
  const store = new RequestStore(redis, prefix, () => now);
  const paid = await create(store, transfer, 'invoice 7');
  now += 60_000;
  await store.vote(paid, 'U0APPROVER1');
  now += 1_000;
  const run = await store.startExecution(paid, 'worker-1');
  if (!run.token) throw new Error('not started');
  now += 1_000;
  await store.finishExecution(paid, run.token, 'succeeded', { hash: '0xabc', link: 'https://basescan.org/tx/0xabc' });

  now = DAY2;
  const payee = await create(store, beneficiary, `payee with account ${ACCOUNT}`);
  now += 30_000;
  await store.transition(
    payee,
    ['pending'],
    'denied',
    { event: 'denied', by: 'U0APPROVER2', detail: `wrong account ${ACCOUNT}` },
    { denyReason: `wrong account ${ACCOUNT}` },
  );

  now = DAY3;
  await create(store, offramp, 'payout');
});
afterAll(() => cleanUp(redis, prefix, dir));

describe('rampart audit export', () => {
  it('writes JSON Lines: one request per line with its whole history, oldest first', async () => {
    const { r, out, rows } = await exportJsonl(dir, env);
    expect(r.stderr).toBe(`3 request(s), 9 event(s) exported to ${out}.\n`);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      id: ids[0],
      kind: 'transfer',
      state: 'succeeded',
      createdAt: '2026-11-01T09:00:00.000Z',
      expiresAt: '2026-11-02T09:00:00.000Z',
      requester: 'U0REQUESTER',
      reason: 'invoice 7',
      rule: '1 approval',
      requiredApprovals: 1,
      callHash: callHash(transfer),
      call: transfer,
      approvals: [{ by: 'U0APPROVER1', at: '2026-11-01T09:01:00.000Z' }],
      decidedBy: 'U0APPROVER1',
      // The vote dates the quorum on Redis's clock (TIME), not the store's staged one.
      decidedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      outcome: { hash: '0xabc', link: 'https://basescan.org/tx/0xabc' },
      history: [
        { at: '2026-11-01T09:00:00.000Z', event: 'requested', by: 'U0REQUESTER', detail: 'invoice 7' },
        { at: '2026-11-01T09:01:00.000Z', event: 'approval', by: 'U0APPROVER1' },
        { at: '2026-11-01T09:01:00.000Z', event: 'approved', by: 'U0APPROVER1' },
        { at: '2026-11-01T09:01:00.000Z', event: 'queued' },
        { at: '2026-11-01T09:01:01.000Z', event: 'executing', by: 'worker-1' },
        { at: '2026-11-01T09:01:02.000Z', event: 'succeeded' },
      ],
    });
    expect(rows[1]).toMatchObject({
      id: ids[1],
      kind: 'beneficiary',
      state: 'denied',
      reason: 'payee with account ••••6789',
      denyReason: 'wrong account ••••6789',
      call: {
        kind: 'beneficiary',
        body: {
          identity_id: 'idn_42',
          details: { bank_code: '058', account_number: '••••6789', account_name: 'ADA OBI' },
        },
      },
      history: [
        {
          at: '2026-11-02T23:59:00.000Z',
          event: 'requested',
          by: 'U0REQUESTER',
          detail: 'payee with account ••••6789',
        },
        { at: '2026-11-02T23:59:30.000Z', event: 'denied', by: 'U0APPROVER2', detail: 'wrong account ••••6789' },
      ],
    });
    expect(rows[1]?.callHash).toBe(callHash(beneficiary)); // the hash of what was sealed, not of the masked copy
    expect(rows[2]).toMatchObject({ id: ids[2], kind: 'offramp', state: 'pending', call: offramp });
  });

  it('writes CSV with one row per event, and only the requests created in the range', async () => {
    const out = join(dir, 'range.csv');
    const r = await cli(['audit', 'export', '--since', '2026-11-02', '--until', '2026-11-02', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(text.trimEnd().split('\n')).toEqual([
      'request_id,kind,state,created_at,requester,reason,rule,call_hash,wallet_id,asset,amount,destination,event_at,event,event_by,event_detail,outcome_hash,outcome_link,outcome_reference,outcome_id,outcome_message,execution_id,row,reference',
      `${ids[1]},beneficiary,denied,2026-11-02T23:59:00.000Z,U0REQUESTER,payee with account ••••6789,1 approval,${callHash(beneficiary)},,,,identity idn_42 account ••••6789,2026-11-02T23:59:00.000Z,requested,U0REQUESTER,payee with account ••••6789,,,,,,,,`,
      `${ids[1]},beneficiary,denied,2026-11-02T23:59:00.000Z,U0REQUESTER,payee with account ••••6789,1 approval,${callHash(beneficiary)},,,,identity idn_42 account ••••6789,2026-11-02T23:59:30.000Z,denied,U0APPROVER2,wrong account ••••6789,,,,,,,,`,
    ]);
  });

  it('never writes a whole account number, in either format', async () => {
    for (const format of ['csv', 'jsonl']) {
      const r = await cli(['audit', 'export', '--format', format], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('••••6789');
      expect(r.stdout).not.toContain(ACCOUNT);
      expect(r.stdout).not.toContain(ACCOUNT.slice(0, 6));
    }
  });

  it('refuses a bad date, format or range with one line, before opening anything', async () => {
    const cases: [string[], string][] = [
      [['--since', 'yesterday'], '--since "yesterday" is not a date such as 2026-11-01'],
      [['--format', 'xml'], '--format "xml" is not one of csv, jsonl'],
      [['--since', '2026-11-03', '--until', '2026-11-01'], '--since is after --until'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['audit', 'export', ...args], { ...env, REDIS_URL: 'redis://127.0.0.1:1' });
      expect(r.code).toBe(2);
      expect(lines(r.stderr)[0]).toContain(message);
    }
    const existing = join(dir, 'all.jsonl');
    const again = await cli(['audit', 'export', '--out', existing], env);
    expect(again.code).toBe(1);
    expect(lines(again.stderr)).toEqual([
      `rampart: ${existing} already exists; choose another --out or remove it first.`,
    ]);
  });
});
