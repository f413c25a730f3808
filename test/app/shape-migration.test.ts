/**
 * Mixed versions: an approval written before the approval stored its `shape` (format 2: raw
 * HSETs exactly as the old create script wrote them, no `shape`) meets today's scripts. The first
 * script that touches it (the vote) migrates it to format 3, deriving the shape once from what
 * the record holds (a batch's sealed request carries its card facts), and it then runs once
 * through approve → start → finish like any new approval.
 */
import { expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import { approvalHashOf, cardHash, executionId, sealHash } from '../../src/domain/approval.js';
import type { SealedRequest, ServiceCall } from '../../src/domain/request.js';
import { RECORD_VERSION } from '../../src/store/migration-sweep.js';
import { createField } from '../../src/store/velocity-lua.js';
import { APPROVERS, REQUESTER, transfer, useWorld } from './support.js';

const w = useWorld('shape-migration');

const A1 = APPROVERS[0] as string;

/** What the format-2 create script stored for a pending approval: every field but `shape`. */
async function formatTwoRecord(id: string, calls: ServiceCall[], batch: boolean): Promise<SealedRequest> {
  const now = Date.now();
  const total = calls.reduce((sum, c) => sum + (c.body as { amount: number }).amount, 0);
  const sealed: SealedRequest = {
    id,
    call: batch ? transfer(total) : (calls[0] as ServiceCall),
    display: batch ? { chain: 'base', walletAlias: 'ops', batch: { kind: 'transfers' } as never } : { chain: 'base' },
    requester: REQUESTER,
    reason: 'written before the upgrade',
    createdAt: now,
    expiresAt: now + 86_400_000,
    requiredApprovals: 1,
    rule: '1 approval',
    hash: cardHash(approvalHashOf(calls)),
  };
  const p = w.prefix;
  const n = String(calls.length);
  await w.redis.hset(`${p}:req:${id}`, {
    frozen: JSON.stringify(sealed),
    state: 'pending',
    requester: REQUESTER,
    required: '1',
    expiresAt: String(sealed.expiresAt),
    votes: '[]',
    kind: 'transfer',
    v: '2',
    view: 'pending',
    n,
    'c:queued': n,
    velocity: createField(sealed),
  });
  for (const [i, call] of calls.entries())
    await w.redis.hset(`${p}:exec:${executionId(id, i + 1)}`, {
      v: '2',
      state: 'queued',
      approval: id,
      n: String(i + 1),
      call: JSON.stringify(call),
      sealHash: sealHash(call),
      tries: '0',
    });
  await w.redis.rpush(`${p}:req:${id}:history`, JSON.stringify({ at: now, event: 'requested', by: REQUESTER }));
  await w.redis.zadd(`${p}:req:recent`, now, id);
  await w.redis.zadd(`${p}:req:state:pending`, now, id);
  await w.redis.sadd(`${p}:req:open`, id);
  return sealed;
}

const stored = (id: string) => w.redis.hmget(`${w.prefix}:req:${id}`, 'v', 'shape');

it('an old batch record runs once through approve → start → finish and ends migrated, shape batch', async () => {
  const id = (await w.store.allocate('B')).id;
  const rows = [4.01, 4.02];
  await w.store.batches.saveRows(
    id,
    rows.map((a, i) => ({ row: i + 2, destination: 'x', amount: String(a) })),
  );
  await formatTwoRecord(id, rows.map(transfer), true);
  expect(await stored(id)).toEqual(['2', null]);

  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  expect(await stored(id)).toEqual([String(RECORD_VERSION), 'batch']);
  // As a batch: row 1 takes the wallet's turn and asks for the funding check first.
  const first = await w.store.executions.start(`${id}.1`, 't');
  expect(first.token === undefined ? first.approval : 'started').toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
  expect((await w.store.executions.start(`${id}.2`, 't')).token).toBeUndefined();
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('succeeded');
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('succeeded');
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('skipped');
  expect([w.received(4.01), w.received(4.02)]).toEqual([1, 1]);
  expect(await w.store.get(id)).toMatchObject({ shape: 'batch', approvalState: 'done', state: 'succeeded' });
  // A batch's history names each row.
  const executing = (await w.store.history(id)).filter((e) => e.event === 'executing');
  expect(executing.map((e) => e.execution)).toEqual([`${id}.1`, `${id}.2`]);
});

it('an old single record runs once and ends migrated, shape single', async () => {
  const id = await w.store.nextId();
  await formatTwoRecord(id, [transfer(4.11)], false);
  // Read before any script touched it: already shown as what it will be migrated to.
  expect((await w.store.get(id))?.shape).toBe('single');
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  expect(await stored(id)).toEqual([String(RECORD_VERSION), 'single']);
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('succeeded');
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('skipped');
  expect(w.received(4.11)).toBe(1);
  // A single request's history reads as before approvals had executions.
  const executing = (await w.store.history(id)).filter((e) => e.event === 'executing');
  expect(executing).toHaveLength(1);
  expect(executing[0]?.execution).toBeUndefined();
});

it('the sweep migrates an old record nothing has touched, once', async () => {
  const id = await w.store.nextId();
  await formatTwoRecord(id, [transfer(4.21)], false);
  const batchId = (await w.store.allocate('B')).id;
  await formatTwoRecord(batchId, [transfer(4.22), transfer(4.23)], true);
  await w.redis.del(`${w.prefix}:migrated`);
  const swept = await w.store.migrate();
  expect(swept.left).toBe(0);
  expect(swept.migrated).toBeGreaterThanOrEqual(2);
  expect(await stored(id)).toEqual([String(RECORD_VERSION), 'single']);
  expect(await stored(batchId)).toEqual([String(RECORD_VERSION), 'batch']);
  expect(await w.redis.get(`${w.prefix}:migrated`)).toBe(String(RECORD_VERSION));
  expect((await w.store.migrate()).swept).toBe(false);
});

it("a batch's own scripts (stop, pause, resume, funded) migrate an old record they touch", async () => {
  const id = (await w.store.allocate('B')).id;
  await formatTwoRecord(id, [transfer(4.31), transfer(4.32)], true);
  // Still pending: the stop is refused, and the record it read is migrated all the same.
  expect(await w.store.batches.stop(id, A1)).toEqual({ ok: false, state: 'pending' });
  expect(await stored(id)).toEqual([String(RECORD_VERSION), 'batch']);
});
