/** At a series' quorum: the delayed job of its first run (a live series has one job between runs). */
import type { AppDeps } from '../deps.js';

export async function scheduleFirstRun(
  deps: Pick<AppDeps, 'store' | 'queues' | 'now'>,
  seriesId: string,
): Promise<void> {
  const first = (await deps.store.get(seriesId))?.sealed.schedule?.runs[0];
  if (first !== undefined) await deps.queues.scheduleSeriesRun(seriesId, first, first - deps.now());
}
