/**
 * One numbering for a batch's rows wherever people type them: `/resolve B-1003 row 2` (the row of
 * the file, as the card, thread and receipt name it) settles execution B-1003.1, and the execution
 * id typed as such still works. Real Redis and the store's scripts.
 */
import { expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { resolveUnknown } from '../../src/app/resolve.js';
import { parseResolution } from '../../src/domain/resolution.js';
import { buildBatchFacts } from '../support/factories.js';
import { APPROVERS, sealBatch, useWorld } from './support.js';

const w = useWorld('row-names');

const facts = buildBatchFacts([1, 2], { fileFingerprint: 'e'.repeat(64) });
const HASH = `0x${'ab'.repeat(32)}`;

/** A two-row file batch whose first row (file row 2, execution .1) is outcome unknown. */
async function unknownFirstRow(): Promise<string> {
  const id = await sealBatch(w, [1, 2], 'B', { batch: facts });
  await approve(w.deps, id, APPROVERS[0] as string);
  expect((await w.store.executions.start(`${id}.1`, 't')).approval).toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
  const started = await w.store.executions.start(`${id}.1`, 't1');
  await w.store.executions.finish(`${id}.1`, started.token ?? '', 'unknown', { message: 'no answer' });
  return id;
}

function typed(words: string): ReturnType<typeof parseResolution> & { ok: true } {
  const parsed = parseResolution(words.split(' '));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed;
}

it('/resolve B-n row 2 paid … records the row the card names (execution .1); the execution id typed as such works too', async () => {
  const id = await unknownFirstRow();
  const missing = await resolveUnknown(w.deps, APPROVERS[1] as string, typed(`${id} row 4 paid ${HASH}`).resolution);
  expect(missing).toEqual({ kind: 'missing', id: `${id} row 4` });
  expect((await w.store.executions.get(`${id}.1`))?.state).toBe('unknown');

  const outcome = await resolveUnknown(w.deps, APPROVERS[1] as string, typed(`${id} row 2 paid ${HASH}`).resolution);
  expect(outcome).toMatchObject({ kind: 'paid', executionId: `${id} row 2` });
  expect((await w.store.executions.get(`${id}.1`))?.state).toBe('succeeded');
  expect((await w.store.executions.get(`${id}.2`))?.state).toBe('queued');

  // File row 3 is execution .2: unknown in its turn, settled by its execution id.
  expect((await w.store.batches.resume(id, APPROVERS[1] as string)).ok).toBe(true);
  // Resume asks for the funding check again before the next row (as executeOne does).
  expect((await w.store.executions.start(`${id}.2`, 't')).approval).toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
  const started = await w.store.executions.start(`${id}.2`, 't2');
  expect(started.token).toBeDefined();
  await w.store.executions.finish(`${id}.2`, started.token ?? '', 'unknown', { message: 'no answer' });
  const byId = await resolveUnknown(w.deps, APPROVERS[1] as string, typed(`${id}.2 paid ${HASH}`).resolution);
  expect(byId).toMatchObject({ kind: 'paid', executionId: `${id}.2` });
  expect((await w.store.executions.get(`${id}.2`))?.state).toBe('succeeded');
});
