/**
 * Card posts and refreshes, replies and direct messages (app/notices/notify.ts), through the
 * notifier port. Slack's rate limit or a throttle waits in BullMQ's delayed set, costing no attempt.
 */
import { notifyJob, QUEUE_NAMES } from '../job-data.js';
import { defineJob, performed } from './job.js';

export const notifyJobType = defineJob({
  queue: QUEUE_NAMES.notify,
  schema: notifyJob,
  worker: { concurrency: 4 },
  async perform(ctx, data, job) {
    return performed(ctx, await ctx.app.notices.post({ requestId: data.requestId, kind: data.kind }, job.timestamp));
  },
});
