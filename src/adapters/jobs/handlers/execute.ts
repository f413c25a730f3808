/** One try of one execution: the worker app runs it, at most once (app/executions/run.ts). */
import { executeJob, QUEUE_NAMES } from '../job-data.js';
import { defineJob, performed } from './job.js';

export const executeJobType = defineJob({
  queue: QUEUE_NAMES.execute,
  schema: executeJob,
  // BullMQ is at-least-once; money jobs must never be re-run by it on its own.
  // Four calls at a time, as four Workers of one job each rather than one Worker of four: a Worker
  // running fewer jobs than its concurrency fetches again the moment it takes one (a moveToActive,
  // then a BZPOPMIN that BullMQ's own "more may be waiting" marker answers at once, then another
  // moveToActive), all on the event loop between the start script and the service call. A Worker of
  // one fetches its next job in the same script that finishes the last (moveToFinished); the only
  // extra at a start is one idle Worker's wake-up.
  worker: { concurrency: 1, workers: 4, maxStalledCount: 0 },
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
