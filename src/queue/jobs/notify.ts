/** Card posts and refreshes, replies and direct messages (queue/notify.ts), through the notifier port. */
import { RateLimitedError } from '../../app/notifier.js';
import { takeUnknownReadings } from '../../app/unknown-reading.js';
import { notify } from '../notify.js';
import { notifyJob, QUEUE_NAMES } from '../queues.js';
import { defineJob } from './job.js';

export const notifyJobType = defineJob({
  queue: QUEUE_NAMES.notify,
  schema: notifyJob,
  worker: { concurrency: 4 },
  async perform(ctx, data, job) {
    try {
      const r = await notify(
        {
          notifier: ctx.notifier,
          store: ctx.store,
          log: ctx.log,
          approvalsChannel: ctx.approvalsChannel,
          jobs: ctx.queues,
          progress: ctx.progressLimits,
          frozen: async () => (await ctx.controls.freeze()) !== undefined,
          unknownReadings: (record) =>
            takeUnknownReadings({ store: ctx.store, service: ctx.service, log: ctx.log, now: ctx.now }, record),
        },
        data,
        job.timestamp,
      );
      return r ?? { done: true };
    } catch (err) {
      // Slack asked us to wait: the job waits in BullMQ's delayed set, costing no attempt.
      if (err instanceof RateLimitedError) return { wait: err.retryAfterMs };
      throw err;
    }
  },
});
