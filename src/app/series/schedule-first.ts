/**
 * At a series' quorum: the delayed job that wakes for the notice before its first run (a live
 * series has one job between runs; that job posts the notice and wakes again at the run's time).
 */
import { noticeLeadMs } from '../../domain/series-plan.js';
import type { AppDeps } from '../deps.js';

export async function scheduleFirstRun(
  deps: Pick<AppDeps, 'store' | 'queues' | 'now' | 'config'>,
  seriesId: string,
): Promise<void> {
  const runs = (await deps.store.get(seriesId))?.sealed.schedule?.runs;
  const first = runs?.[0];
  if (runs === undefined || first === undefined) return;
  const wake = first - noticeLeadMs(runs, 1, deps.config.series.noticeMs);
  await deps.queues.scheduleSeriesRun(seriesId, wake, wake - deps.now());
}
