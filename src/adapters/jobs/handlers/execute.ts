/** One try of one execution: the worker app runs it, at most once (app/executions/run.ts). */
import { executeJob, QUEUE_NAMES } from '../job-data.js';
import { defineJob, performed } from './job.js';

export const executeJobType = defineJob({
  queue: QUEUE_NAMES.execute,
  schema: executeJob,
  // BullMQ is at-least-once; money jobs must never be re-run by it on its own.
  worker: { concurrency: 4, maxStalledCount: 0 },
  async perform(ctx, data, job) {
    return performed(ctx, await ctx.app.executions.run(data.executionId, job.id ?? ''));
  },
  /** A stalled job lands here without our code having finished: settle the execution now. */
  async onFailed(ctx, job) {
    const parsed = executeJob.safeParse(job.data);
    if (!parsed.success || !job.id) return;
    await ctx.app.executions.settleStalled(parsed.data.executionId, job.id);
  },
});
