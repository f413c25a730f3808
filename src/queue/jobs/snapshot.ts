/**
 * Balance snapshots (issue 24): a chain of delayed jobs, one per SNAPSHOT_EVERY period, whose id
 * is the period's start — every worker schedules the same id, so BullMQ holds one; each run
 * schedules the next before reading, and every worker start (and reconcile round) schedules it
 * again, so the chain survives restarts. The period's claim (app/snapshot.ts) keeps it to one
 * read per wallet even if a job were run twice. Reads only: nothing here moves money.
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { periodOf, snapshotBalances } from '../../app/snapshot.js';
import { JOB_VERSION } from '../queues.js';
import { defineJob, type JobContext } from './job.js';

export const SNAPSHOT_QUEUE = 'snapshot';
const snapshotJob = z.object({ v: z.number().int().optional(), period: z.number().int() });

/** Queues the job of the period after now (a no-op when it is already queued). */
async function scheduleNext(ctx: JobContext, queue: Queue): Promise<void> {
  if (!ctx.snapshots) return;
  const every = ctx.snapshots.everyMs;
  const now = ctx.now();
  const period = periodOf(now, every) + every;
  await queue.add(
    'snapshot',
    { v: JOB_VERSION, period },
    {
      jobId: `snapshot-${period}`,
      delay: Math.max(0, period - now),
      attempts: 1,
      removeOnComplete: { age: 86_400 },
      removeOnFail: { age: 7 * 86_400 },
    },
  );
}

export const snapshotJobType = defineJob({
  queue: SNAPSHOT_QUEUE,
  schema: snapshotJob,
  worker: {},
  start: scheduleNext,
  async perform(ctx, _data, _job, own) {
    if (!ctx.snapshots) return { done: 'off' };
    if (own)
      await scheduleNext(ctx, own).catch((err: unknown) =>
        ctx.log.warn({ err }, 'could not queue the next balance snapshot; the next reconcile round will'),
      );
    const result = await snapshotBalances({
      service: ctx.service,
      history: ctx.snapshots.history,
      wallets: ctx.snapshots.wallets,
      everyMs: ctx.snapshots.everyMs,
      now: ctx.now,
      log: ctx.log,
    });
    return { done: result };
  },
});
