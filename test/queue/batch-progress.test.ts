/**
 * A batch's progress in the notify processor, on a real Redis: the throttles hold across
 * processes (a second limiter on the same keys is refused), a running batch's card is redrawn
 * only when what it shows changes, and a state change redraws the card while the progress
 * update waits for its turn.
 */
import { expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { PROGRESS_EVERY_MS } from '../../src/app/notices/batch-progress.js';
import { type NotifyDeps, notify } from '../../src/app/notices/notify.js';
import type { Notifier } from '../../src/app/notifier.js';
import type { NotifyRequest } from '../../src/app/ports.js';
import { progressLimits } from '../../src/compose/progress-limits.js';
import { createLogger } from '../../src/log.js';
import { APPROVERS, sealBatch, useWorld } from '../app/support.js';

const w = useWorld('batch-progress');

it('one update per 3 s per batch, and one per 3 s for all batches together, whichever process asks', async () => {
  const a = progressLimits(w.redis, w.prefix);
  const b = progressLimits(w.redis, w.prefix); // another process: same keys
  expect(await a.batch('B-1')).toBe(0);
  const wait = await b.batch('B-1');
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(PROGRESS_EVERY_MS);
  expect(await b.batch('B-2')).toBe(0);
  // 20 a minute for everyone: the second update anywhere within 3 s waits.
  expect(await a.all()).toBe(0);
  expect(await b.all()).toBeGreaterThan(0);
  expect(await a.all()).toBeGreaterThan(0);
});

async function approvedBatch(): Promise<string> {
  const id = await sealBatch(w, [1.01, 1.02, 1.03], 'B', {
    display: { chain: 'base', walletAlias: 'ops', batch: { kind: 'transfers' } as never },
    reason: 'progress',
  });
  await w.store.setCard(id, { channel: 'C0APPROVALS', ts: '1.000001' });
  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  // The funding check a batch passes when it takes its wallet's turn (app/batch-funding.ts).
  expect(await checkFunding(w.deps, id)).toBe('funded');
  return id;
}

it('the card is redrawn on a state change, never per row, and never waits behind a throttled progress update', async () => {
  const id = await approvedBatch();
  const drawn: string[] = [];
  const progress: string[] = [];
  const queued: NotifyRequest[] = [];
  const notifier = {
    updateCard: async (r) => void drawn.push(r.approvalState),
    batchProgress: async (r) => {
      progress.push(r.approvalState);
      return '2.000001';
    },
    batchRows: async () => {},
    batchPaused: async () => {},
    batchFinished: async () => {},
    tellRequester: async () => {},
  } as Partial<Notifier> as Notifier;
  const deps: NotifyDeps = {
    notifier,
    store: w.store,
    log: createLogger({ level: 'silent' }),
    approvalsChannel: 'C0APPROVALS',
    jobs: { notify: async (job) => void queued.push(job) },
    // Every progress update is told to wait a minute.
    progress: { batch: async () => 60_000, all: async () => 0 },
  };
  await notify(deps, { requestId: id, kind: 'card' });
  expect(drawn).toEqual(['approved']);
  expect(queued).toEqual([{ requestId: id, kind: 'progress' }]);
  expect(await notify(deps, { requestId: id, kind: 'progress' })).toEqual({ wait: 60_000 });
  expect(progress).toEqual([]);

  // Row 1 starts and ends: the batch is running; the card says so once, and not again per row.
  const one = await w.store.executions.start(`${id}.1`, 't');
  await notify(deps, { requestId: id, kind: 'card' });
  await w.store.executions.finish(`${id}.1`, one.token ?? '', 'succeeded', {});
  await notify(deps, { requestId: id, kind: 'card' });
  expect(drawn).toEqual(['approved', 'running']);
  // The waiting progress job covers these rows: no second one is queued.
  expect(queued).toHaveLength(1);

  // A pause (an unknown row) is drawn at once, while the progress update still waits.
  const two = await w.store.executions.start(`${id}.2`, 't');
  await w.store.executions.finish(`${id}.2`, two.token ?? '', 'unknown', {});
  await notify(deps, { requestId: id, kind: 'card' });
  expect(drawn).toEqual(['approved', 'running', 'paused']);
  expect(progress).toEqual([]);

  // A card job queued well before that check (a row's, long waiting) costs one read, no more.
  const get = w.store.get.bind(w.store);
  let reads = 0;
  w.store.get = async (...args) => {
    reads += 1;
    return get(...args);
  };
  await notify(deps, { requestId: id, kind: 'card' }, Date.now() - 60_000);
  expect(reads).toBe(0);
  await notify(deps, { requestId: id, kind: 'card' }, Date.now());
  expect(reads).toBeGreaterThan(0);
  w.store.get = get;
  expect(drawn).toEqual(['approved', 'running', 'paused']);

  // Its turn comes: the progress message is posted with what is current.
  deps.progress = { batch: async () => 0, all: async () => 0 };
  expect(await notify(deps, { requestId: id, kind: 'progress' })).toBeUndefined();
  expect(progress).toEqual(['paused']);
  // Nothing changed since: no second update.
  await notify(deps, { requestId: id, kind: 'progress' });
  expect(progress).toEqual(['paused']);
});
