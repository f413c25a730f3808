/** One try of one execution (issue 18 §1): app/execute-one.ts does the work, at most once. */
import { isBatch } from '../../app/batch-run.js';
import { EXECUTE_TRIES, type ExecuteResult, executeOne, markUnknown } from '../../app/execute-one.js';
import { parseExecutionId } from '../../domain/approval.js';
import { executeJob, QUEUE_NAMES } from '../queues.js';
import { defineJob } from './job.js';

export const executeJobType = defineJob({
  queue: QUEUE_NAMES.execute,
  schema: executeJob,
  // BullMQ is at-least-once; money jobs must never be re-run by it on its own.
  worker: { concurrency: 4, maxStalledCount: 0 },
  async perform(ctx, data, job) {
    // Issue 20: all batch rows together at most BATCH_RATE per second, across processes; a row
    // waiting here is delayed, not started (its start script has not run). After a funding
    // check the row asks the limiter again, so that read never shortens the gap between calls.
    const deps = {
      service: ctx.service,
      store: ctx.store,
      registry: ctx.registry,
      controls: ctx.controls,
      jobs: ctx.queues,
      log: ctx.log,
      now: ctx.now,
      workerName: ctx.workerName,
      ...(ctx.durable ? { durable: ctx.durable } : {}),
      ...(ctx.batch ? { batch: ctx.batch } : {}),
    };
    const limited = isBatch(data.executionId) && ctx.batchRate;
    let result: ExecuteResult = 'funded';
    for (let round = 0; result === 'funded' && round < 2; round++) {
      if (limited) {
        const wait = await limited.admit();
        if (wait > 0) return { wait };
      }
      result = await executeOne(deps, data.executionId, {
        jobId: job.id ?? '',
        maxTries: EXECUTE_TRIES,
        returnWhenFunded: round === 0 && Boolean(limited),
      });
    }
    // Issue 20: a batch row that ended (succeeded or failed) queued the next row's try itself,
    // from what its finish script read (app/batch-run.ts afterRow).
    // issue 13: wait, without failing or using an attempt; an approved release promotes it.
    // Issue 20: 'wait' (a batch's balance could not be read for its funding check) waits alike.
    return result === 'frozen' || result === 'wait' ? { wait: ctx.freezeRecheckMs } : { done: result };
  },
  /** A stalled job lands here without our code having finished: settle the execution now. */
  async onFailed(ctx, job) {
    const parsed = executeJob.safeParse(job.data);
    if (!parsed.success || !job.id) return;
    const id = parsed.data.executionId;
    const execution = await ctx.store.execution(id);
    const approvalId = parseExecutionId(id)?.approvalId ?? id;
    const state = execution?.state ?? (await ctx.store.get(approvalId))?.executions[0]?.state;
    if (state === 'executing' && (await ctx.queues.execute.getJobState(job.id)) !== 'active')
      await markUnknown(
        { store: ctx.store, jobs: ctx.queues, log: ctx.log, controls: ctx.controls },
        id,
        'the worker running it stopped before the service answered; it may or may not have gone through',
      );
  },
});
