/** A pending approval's deadline: pending → expired (its executions cancelled with it). */
import { QUEUE_NAMES, requestJob } from '../queues.js';
import { defineJob } from './job.js';

export const expireJobType = defineJob({
  queue: QUEUE_NAMES.expire,
  schema: requestJob,
  worker: {},
  async perform(ctx, { requestId }) {
    const r = await ctx.store.decide(requestId, 'expired', { event: 'expired' }, { decidedAt: String(ctx.now()) });
    if (r.ok) await ctx.queues.notify({ requestId, kind: 'outcome' });
    return { done: r.ok };
  },
});
