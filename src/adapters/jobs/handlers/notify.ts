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
    const notice = { requestId: data.requestId, kind: data.kind, ...(data.run === undefined ? {} : { run: data.run }) };
    return performed(ctx, await ctx.app.notices.post(notice, job.timestamp));
  },
});
