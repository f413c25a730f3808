/** Issue 13: reminders and escalation; a Slack rate limit waits like a notify job. */
import { RateLimitedError } from '../../app/notifier.js';
import { QUEUE_NAMES, remindJob } from '../queues.js';
import { remind } from '../remind.js';
import { defineJob } from './job.js';

export const remindJobType = defineJob({
  queue: QUEUE_NAMES.remind,
  schema: remindJob,
  worker: {},
  async perform(ctx, data) {
    try {
      return {
        done: await remind(
          {
            ...ctx.reminders,
            store: ctx.store,
            queues: ctx.queues,
            notifier: ctx.notifier,
            log: ctx.log,
            now: ctx.now,
          },
          data,
        ),
      };
    } catch (err) {
      if (err instanceof RateLimitedError) return { wait: err.retryAfterMs };
      throw err;
    }
  },
});
