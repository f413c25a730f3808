/** A live series' due run: created once (or skipped), then the next run's delayed job. */
import { QUEUE_NAMES, seriesJob } from '../job-data.js';
import { defineJob, performed } from './job.js';

export const seriesJobType = defineJob({
  queue: QUEUE_NAMES.series,
  schema: seriesJob,
  worker: {},
  async perform(ctx, { seriesId, at }) {
    return performed(ctx, await ctx.app.series.runDue(seriesId, at));
  },
});
