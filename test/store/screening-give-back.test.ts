/**
 * A destination listed between approval and start: the start script itself cancels the
 * execution AND gives its velocity reservation back, in the same EVAL. The store's start is
 * called directly (no app follow-up runs after it), so the ledger read right after it shows only
 * what that one script did: the running total ('#total') and the sum of the amounts drop by the
 * single's amount, or by the one row's amount for a batch (the rest of the batch stays reserved).
 */
import { expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { readPlainList } from '../../src/domain/screening-list.js';
import type { ExecutionStart } from '../../src/store/executions.js';
import { TOTAL_FIELD } from '../../src/store/velocity-lua.js';
import { APPROVERS, sealBatch, useWorld } from '../app/support.js';
import { RECEIVER_EVM } from '../support/factories.js';

const w = useWorld('screening-give-back', { VELOCITY_LIMITS: 'ops:USDC=100000/24h' });

const A1 = APPROVERS[0] as string;
const amountsKey = () => `${w.prefix}:velocity:wal_ops_7f3a:USDC:amounts`;

/** The running total and the sum of every entry, in minor units. */
async function ledger(): Promise<{ total: bigint; sum: bigint }> {
  const held = await w.redis.hgetall(amountsKey());
  let sum = 0n;
  for (const [k, v] of Object.entries(held)) if (!k.startsWith('#')) sum += BigInt(v);
  return { total: BigInt(held[TOTAL_FIELD] ?? '0'), sum };
}

/** What a start that did not run answers (cancelled, or the state it found). */
const refused = (s: ExecutionStart) => (s.token === undefined ? s : undefined);

async function listReceiver(published: string) {
  const read = readPlainList(Buffer.from(`# name: OFAC SDN\n# published: ${published}\n${RECEIVER_EVM}\n`), published);
  if (!read.ok) throw new Error(read.problem);
  await w.store.screening.load(read.list, { by: 'test', source: 'test', now: Date.now(), acceptRemovals: true });
}

it("a single's reservation leaves the ledger in the start that cancels it", async () => {
  const id = await sealBatch(w, [7.25], 'R');
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  const reserved = await ledger();
  expect(reserved.sum).toBe(7_250_000n);
  expect(reserved.total).toBe(reserved.sum);
  await listReceiver('2026-11-27');
  const started = await w.store.executions.start(`${id}.1`, 't');
  expect(refused(started)?.cancelled).toMatchObject({
    why: 'listed on OFAC SDN of 2026-11-27; nothing sent',
    code: 'screening_listed',
  });
  const after = await ledger();
  expect(after).toEqual({ total: reserved.total - 7_250_000n, sum: reserved.sum - 7_250_000n });
  expect(await w.redis.zscore(`${w.prefix}:velocity:wal_ops_7f3a:USDC`, id)).toBeNull();
});

it("a batch row's units come off the batch's reservation in the start that cancels it, once", async () => {
  // 0.29 × 10^6 is not an integer in binary floating point: the script must round it exactly.
  const id = await sealBatch(w, [0.29, 2.25, 3]);
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  const reserved = await ledger();
  const first = await w.store.executions.start(`${id}.1`, 't');
  expect(first.token === undefined ? first.approval : 'started').toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
  await listReceiver('2026-11-28');
  const started = await w.store.executions.start(`${id}.1`, 't');
  expect(refused(started)?.cancelled?.code).toBe('screening_listed');
  expect((await w.store.get(id))?.approvalState).toBe('paused');
  const after = await ledger();
  expect(after).toEqual({ total: reserved.total - 290_000n, sum: reserved.sum - 290_000n });
  expect(await w.redis.hget(amountsKey(), id)).toBe('5250000');
  // The row is cancelled: a second start finds nothing queued and gives nothing back again.
  expect(refused(await w.store.executions.start(`${id}.1`, 't'))?.from).toBe('cancelled');
  expect(await ledger()).toEqual(after);
});

it('a record stored before its velocity field gives its reservation back in the start that cancels it', async () => {
  const id = await sealBatch(w, [4.5], 'R');
  // An older record: the vote reserves the subject the app passes (needs_subject) and stores none.
  await w.redis.hdel(w.store.keys.approval(id), 'velocity');
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  expect(await w.redis.hget(amountsKey(), id)).toBe('4500000');
  const reserved = await ledger();
  await listReceiver('2026-11-29');
  expect(refused(await w.store.executions.start(`${id}.1`, 't'))?.cancelled?.code).toBe('screening_listed');
  expect(await ledger()).toEqual({ total: reserved.total - 4_500_000n, sum: reserved.sum - 4_500_000n });
  expect(await w.redis.zscore(`${w.prefix}:velocity:wal_ops_7f3a:USDC`, id)).toBeNull();
});
