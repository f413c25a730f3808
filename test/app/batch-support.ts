/** Batch helpers the app-level batch tests share: the ledger a batch holds, its rows' deps, a freeze mid-batch. */
import { expect } from 'vitest';
import { approve } from '../../src/app/decide.js';
import { type ExecuteOneDeps, executeOne } from '../../src/app/execute-one.js';
import { startUnfreeze } from '../../src/app/freeze.js';
import { velocitySubject } from '../../src/domain/velocity.js';
import { A1, sealBatch, type World } from './support.js';

/**
 * Minor units the approval `id` still holds in the velocity ledger: its unstarted reservation plus
 * the rows that ran, each re-stamped under its own id `<id>.<row>`.
 */
export async function reservedUnits(w: World, id: string): Promise<bigint> {
  const record = await w.store.get(id);
  const subject = record ? velocitySubject(record.sealed) : undefined;
  if (!subject) throw new Error('no subject');
  const amounts = await w.redis.hgetall(w.controls.amountsKey(subject));
  return Object.entries(amounts)
    .filter(([k]) => k === id || k.startsWith(`${id}.`))
    .reduce((sum, [, v]) => sum + BigInt(v), 0n);
}

/** A batch row's execute deps: the world's, with its controls and the batch's pause and hold limits. */
export const batchExec = (
  w: World,
  pauseAfterFailures: number,
  extra: Partial<ExecuteOneDeps> = {},
): ExecuteOneDeps => ({
  ...w.exec(),
  controls: w.controls,
  batch: { pauseAfterFailures, holdLimitMs: 86_400_000 },
  ...extra,
});

/**
 * A batch of `amounts` approved and its row 1 run, then a freeze: row 2 is held (START's freeze
 * check), and an unfreeze proposal is open. Returns the batch, the proposal and the votes' deps.
 */
export async function frozenAfterRowOne(w: World, exec: () => ExecuteOneDeps, amounts: number[]) {
  const id = await sealBatch(w, amounts);
  await approve(w.deps, id, A1);
  expect(await executeOne(exec(), `${id}.1`)).toBe('succeeded');
  const freezeDeps = { ...w.deps, unfreeze: w.unfreeze };
  await w.controls.setFreeze({ by: A1, at: Date.now(), reason: 'test' });
  expect(await executeOne(exec(), `${id}.2`)).toBe('held');
  const opened = await startUnfreeze(freezeDeps, A1);
  if (opened.kind !== 'proposal') throw new Error(opened.kind);
  return { id, freezeDeps, proposal: opened.proposal.id };
}
