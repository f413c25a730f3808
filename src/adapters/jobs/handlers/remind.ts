/** Reminders and escalation (app/notices/remind.ts); a Slack rate limit waits like a notify job. */
import { QUEUE_NAMES, remindJob } from '../job-data.js';
import { defineJob, performed } from './job.js';

export const remindJobType = defineJob({
  queue: QUEUE_NAMES.remind,
  schema: remindJob,
  worker: {},
  async perform(ctx, data) {
    return performed(ctx, await ctx.app.notices.remind(data));
  },
});
