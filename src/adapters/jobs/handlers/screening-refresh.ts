/**
 * The sanctions list's refresh: a chain of delayed jobs, one per SCREENING_REFRESH period, whose
 * id is the period's start (every worker schedules the same id, so BullMQ holds one), as the
 * balance snapshots do. A worker that starts in a period no fetch has confirmed yet queues that
 * period's fetch at once. Reads a published file only: nothing here moves money.
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { JOB_VERSION } from '../job-data.js';
import { defineJob, type JobContext, performed } from './job.js';

export const SCREENING_QUEUE = 'screening';
const refreshJob = z.object({ v: z.number().int().optional(), period: z.number().int() });

const options = (period: number, delay: number) => ({
  jobId: `screening-${period}`,
  delay,
  attempts: 1,
  removeOnComplete: { age: 86_400 },
  removeOnFail: { age: 7 * 86_400 },
});

async function scheduleNext(ctx: JobContext, queue: Queue): Promise<void> {
  const next = ctx.app.screening.next();
  if (next) await queue.add('screening', { v: JOB_VERSION, period: next.at }, options(next.at, next.delayMs));
}

export const screeningRefreshJobType = defineJob({
  queue: SCREENING_QUEUE,
  schema: refreshJob,
  worker: {},
  async start(ctx, own) {
    const due = await ctx.app.screening.dueNow();
    if (due !== undefined) await own.add('screening', { v: JOB_VERSION, period: due }, options(due, 0));
    await scheduleNext(ctx, own);
  },
  async perform(ctx, _data, _job, own) {
    if (own)
      await scheduleNext(ctx, own).catch((err: unknown) =>
        ctx.log.warn({ err }, 'could not queue the next screening refresh; the next reconcile round will'),
      );
    return performed(ctx, await ctx.app.screening.refresh());
  },
});
