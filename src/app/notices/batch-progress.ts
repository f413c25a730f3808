/**
 * A batch's progress: one message in the card's thread, updated at most
 * every 3 s per batch and at most 20 chat.update a minute for all batches together, across
 * processes (GCRA keys in Redis, store/rate-limiter.ts: one slot under the hash-tagged prefix).
 * It runs as its own notify job (kind 'progress') that waits in BullMQ's delayed set, so a card's
 * state change never waits behind it. The card itself is redrawn only when what it shows changes
 * (state, freeze, unknown rows), not per row.
 */

import type { RequestRecord } from '../../domain/request.js';
import { isBatchRecord } from '../../domain/request.js';
import type { Logger } from '../../log.js';
import type { RequestStore } from '../../store/requests.js';
import { withMoved } from '../batch-moved.js';
import { PROGRESS_PENDING_MS } from '../batch-run.js';
import { type CardRef, NeedsAdminError, type Notifier, RateLimitedError } from '../notifier.js';
import type { JobQueue } from '../ports.js';

export const PROGRESS_EVERY_MS = 3_000;
export const PROGRESS_PER_MINUTE = 20;

/** 0 when an update may go now (and counts), else how many ms to wait. */
export interface ProgressLimits {
  batch(id: string): Promise<number>;
  all(): Promise<number>;
}

/** The states in which a batch's card shows execution, and its thread a progress message. */
const RUN_STATES: ReadonlySet<RequestRecord['approvalState']> = new Set([
  'approved',
  'running',
  'paused',
  'stopping',
  'done',
]);

export const showsProgress = (r: RequestRecord): boolean => isBatchRecord(r) && RUN_STATES.has(r.approvalState);

/**
 * What a running batch's card shows, as a string; undefined when the card is always redrawn
 * (not a batch, or not yet approved). Counts are in it only where the card prints them.
 */
export function cardSignature(r: RequestRecord, frozen: boolean): string | undefined {
  if (!showsProgress(r)) return undefined;
  const counted = r.approvalState === 'paused' || r.approvalState === 'stopping' || r.approvalState === 'done';
  return [
    r.approvalState,
    frozen ? 'frozen' : '',
    r.votes.length,
    r.counts.unknown,
    r.pauseReason ?? '',
    counted ? JSON.stringify(r.counts) : '',
  ].join('|');
}

const progressSignature = (r: RequestRecord): string => `${r.approvalState}|${JSON.stringify(r.counts)}`;

export interface ProgressDeps {
  notifier: Notifier;
  store: RequestStore;
  log: Logger;
  jobs?: Pick<JobQueue, 'notify'> | undefined;
  progress?: ProgressLimits | undefined;
}

/** The progress job: draws the batch as it is now, or says how long to wait for a turn. */
export async function runProgress(deps: ProgressDeps, id: string): Promise<{ wait: number } | undefined> {
  const { store } = deps;
  // Released first: a row ending from here on queues the next job; this one reads after it.
  await store.release(id, 'progress-pending');
  const record = await store.get(id);
  if (!record?.card || !showsProgress(record)) return undefined;
  const drawn = progressSignature(record);
  if ((await store.postedAt(id, 'progress-shown')) === drawn) return undefined;
  const wait = (await deps.progress?.batch(id)) || (await deps.progress?.all()) || 0;
  if (wait > 0) {
    await store.claim(id, 'progress-pending', PROGRESS_PENDING_MS); // this job stays the waiting one
    return { wait };
  }
  await draw(deps, record, record.card);
  await store.clearPosted(id, 'progress-shown');
  await store.markPosted(id, 'progress-shown', drawn);
  return undefined;
}

async function draw(deps: ProgressDeps, record: RequestRecord, card: CardRef): Promise<void> {
  const id = record.sealed.id;
  const ts = await deps.store.postedAt(id, 'progress');
  if (ts) {
    await deps.notifier.batchProgress(record, card, ts);
    return;
  }
  // Posted once: a crash between the mark and the post loses the message, never doubles it.
  if (!(await deps.store.markPosted(id, 'progress-attempt', String(Date.now())))) return;
  try {
    await deps.store.markPosted(id, 'progress', await deps.notifier.batchProgress(record, card, undefined));
  } catch (err) {
    // Only a post Slack provably refused may be tried again.
    if (err instanceof RateLimitedError || err instanceof NeedsAdminError)
      await deps.store.clearPosted(id, 'progress-attempt');
    throw err;
  }
}

export const CARD_BUSY_WAIT_MS = 250;
const CARD_CLAIM_MS = 5_000;
/** Clocks of two processes may differ this much; a check this close to a job's queueing does not count. */
const CLOCK_MARGIN_MS = 2_000;

/**
 * A batch's card jobs can pile up (a row ending while the batch is paused or
 * stopping, resume, freeze, older workers that queued one per row). A job queued well before the last full check of the batch's card (which read the record after
 * that job's change) has nothing left to do: one read instead of a dozen.
 */
export async function seenSince(store: RequestStore, id: string, enqueuedAt: number): Promise<boolean> {
  // Only a batch's card is marked checked (redrawBatchCard): any other card reads 0 here.
  const checked = Number((await store.postedAt(id, 'card-checked')) ?? '0');
  return enqueuedAt < checked - CLOCK_MARGIN_MS;
}

/**
 * A running batch's card is redrawn only when what it shows changed, never per row
 * (a row's end queues the card only when the batch's state changed: app/batch-run.ts afterRow;
 * progress goes to the thread, throttled). One job
 * at a time per card, reading the record after its claim: a slower job holding an older state
 * can never draw over a newer one. Undefined when another job holds the card (try again soon).
 */
export async function redrawBatchCard(
  deps: ProgressDeps & { frozen?: (() => Promise<boolean>) | undefined },
  id: string,
  card: CardRef,
): Promise<RequestRecord | undefined> {
  const { store } = deps;
  // Short: a worker killed while holding it blocks the card's redraws only this long.
  if (!(await store.claim(id, 'card-draw', CARD_CLAIM_MS))) return undefined;
  try {
    const checkedAt = Date.now(); // before the read: every change queued before it is seen below
    const read = await store.get(id);
    if (!read) throw new Error(`notify: ${id} vanished while its card was redrawn`);
    // A finished batch's card and text say what it moved ("Partly paid: 10 of 20 (500,000.00 cNGN)").
    const record = await withMoved(store, read);
    const drawn = cardSignature(record, (await deps.frozen?.()) ?? false);
    if (drawn === undefined || (await store.postedAt(id, 'card-drawn')) !== drawn) {
      await deps.notifier.updateCard(record, card);
      await store.clearPosted(id, 'card-drawn');
      if (drawn !== undefined) await store.markPosted(id, 'card-drawn', drawn);
    }
    await store.clearPosted(id, 'card-checked');
    await store.markPosted(id, 'card-checked', String(checkedAt));
    return record;
  } finally {
    await store.release(id, 'card-draw');
  }
}
