/** One try of one execution: the worker app runs it, at most once (app/executions/run.ts). */
import { executeJob, QUEUE_NAMES } from '../job-data.js';
import { STOPPING } from '../slots.js';
import { defineJob, performed } from './job.js';

/** Service calls a worker process makes at a time, from jobs and wakes together (slots.ts). */
export const EXECUTION_SLOTS = 4;
/** A job a stopping worker did not start waits this long for another worker. */
const STOPPING_WAIT_MS = 1_000;

export const executeJobType = defineJob({
  queue: QUEUE_NAMES.execute,
  schema: executeJob,
  // BullMQ is at-least-once; money jobs must never be re-run by it on its own.
  // As many Workers of one job each as there are slots, rather than one Worker of four: a Worker
  // running fewer jobs than its concurrency fetches again the moment it takes one (a moveToActive,
  // then a BZPOPMIN that BullMQ's own "more may be waiting" marker answers at once, then another
  // moveToActive), all on the event loop between the start script and the service call. A Worker of
  // one fetches its next job in the same script that finishes the last (moveToFinished).
  worker: { concurrency: 1, workers: EXECUTION_SLOTS, maxStalledCount: 0 },
  async perform(ctx, data, job) {
    const r = await ctx.executionSlots.run(() => ctx.app.executions.run(data.executionId, job.id ?? ''));
    // This worker is stopping: back to the delayed set, unstarted, for a worker that is not.
    if (r === STOPPING) return { wait: STOPPING_WAIT_MS };
    return performed(ctx, r);
  },
  /** A stalled job lands here without our code having finished: settle the execution now. */
  async onFailed(ctx, job) {
    const parsed = executeJob.safeParse(job.data);
    if (!parsed.success || !job.id) return;
    await ctx.app.executions.settleStalled(parsed.data.executionId, job.id);
  },
});
