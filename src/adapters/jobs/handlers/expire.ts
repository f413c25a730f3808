/** A pending approval's deadline: pending → expired (its executions cancelled with it). */
import { QUEUE_NAMES, requestJob } from '../job-data.js';
import { defineJob, performed } from './job.js';

export const expireJobType = defineJob({
  queue: QUEUE_NAMES.expire,
  schema: requestJob,
  worker: {},
  async perform(ctx, { requestId }) {
    return performed(ctx, await ctx.app.notices.expire(requestId));
  },
});
