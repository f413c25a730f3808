/**
 * The weekly report job: one delayed job per REPORT_AT moment, its id the moment
 * itself, so every worker schedules the same one; each run schedules the next week's before
 * posting, and every worker start (and reconcile round) schedules it again, surviving restarts.
 * DST is weekly-schedule.ts's: the next moment is found in the zone's own calendar.
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { JOB_VERSION } from '../job-data.js';
import { defineJob, type JobContext, performed } from './job.js';

const weeklyJob = z.object({ v: z.number().int().optional(), runAt: z.number().int() });

async function schedule(ctx: JobContext, queue: Queue, after: number): Promise<void> {
  const next = ctx.app.reports.nextWeekly(after);
  if (!next) return;
  await queue.add(
    'weekly-report',
    { v: JOB_VERSION, runAt: next.at },
    {
      jobId: `weekly-report-${next.at}`,
      delay: next.delayMs,
      // A post Slack refused (rate limit, brief error) gives its claim back and throws: tried again
      // (30 s, 1, 2, 4 min); one that may have been posted keeps the claim (app/weekly-report.ts).
      attempts: 5,
      backoff: { type: 'exponential', delay: 30_000 },
      removeOnComplete: { age: 30 * 86_400 },
      removeOnFail: { age: 30 * 86_400 },
    },
  );
}

export const weeklyReportJobType = defineJob({
  queue: 'report',
  schema: weeklyJob,
  worker: {},
  start: (ctx, own) => schedule(ctx, own, ctx.now()),
  async perform(ctx, { runAt }, _job, own) {
    if (own)
      await schedule(ctx, own, runAt).catch((err: unknown) =>
        ctx.log.warn({ err }, 'could not queue next week’s report; the next reconcile round will'),
      );
    return performed(ctx, await ctx.app.reports.weekly(runAt));
  },
});
