/**
 * Balance snapshots: a chain of delayed jobs, one per SNAPSHOT_EVERY period, whose id
 * is the period's start — every worker schedules the same id, so BullMQ holds one; each run
 * schedules the next before reading, and every worker start (and reconcile round) schedules it
 * again, so the chain survives restarts. The period's claim (app/snapshot.ts) keeps it to one
 * read per wallet even if a job were run twice. Reads only: nothing here moves money.
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { JOB_VERSION } from '../job-data.js';
import { defineJob, type JobContext, performed } from './job.js';

export const SNAPSHOT_QUEUE = 'snapshot';
const snapshotJob = z.object({ v: z.number().int().optional(), period: z.number().int() });

/** Queues the job of the period after now (a no-op when it is already queued). */
async function scheduleNext(ctx: JobContext, queue: Queue): Promise<void> {
  const next = ctx.app.reports.nextSnapshot();
  if (!next) return;
  await queue.add(
    'snapshot',
    { v: JOB_VERSION, period: next.at },
    {
      jobId: `snapshot-${next.at}`,
      delay: next.delayMs,
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
    if (own)
      await scheduleNext(ctx, own).catch((err: unknown) =>
        ctx.log.warn({ err }, 'could not queue the next balance snapshot; the next reconcile round will'),
      );
    return performed(ctx, await ctx.app.reports.snapshot());
  },
});
