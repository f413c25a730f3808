/**
 * The worker's refresh of the sanctions list from SCREENING_LIST_URL, once per SCREENING_REFRESH
 * period across every worker (the job id is the period's start: BullMQ holds one). A fetch of the
 * same bytes confirms the list (its age restarts); a new list is loaded as `rampart screening load`
 * would, without accepting removals (a list that drops addresses waits for a person). A failed
 * fetch keeps the list, and its age grows until the cards warn (SCREENING_MAX_AGE).
 */
import { maskUrlCredentials } from '../domain/url-credentials.js';
import type { Logger } from '../log.js';
import type { AppDeps } from './deps.js';
import { loadScreening } from './screening-load.js';
import { periodOf } from './snapshot.js';
import { done, type JobOutcome } from './worker-outcome.js';

/** GET of the published file (https only: config checks it); the composition root gives undici's. */
export type FetchList = (url: string) => Promise<Uint8Array>;

export interface ScreeningRefreshDeps {
  store: AppDeps['store'];
  log: Logger;
  now: () => number;
  listUrl: string | undefined;
  refreshMs: number;
  fetchList: FetchList;
}

export function screeningRefresh(deps: ScreeningRefreshDeps) {
  return {
    /** The period after now, or undefined without SCREENING_LIST_URL. */
    next(): { at: number; delayMs: number } | undefined {
      if (!deps.listUrl) return undefined;
      const t = deps.now();
      const at = periodOf(t, deps.refreshMs) + deps.refreshMs;
      return { at, delayMs: at - t };
    },
    /** This period's start when no fetch confirmed the list in it yet (a worker starting late). */
    async dueNow(): Promise<number | undefined> {
      if (!deps.listUrl) return undefined;
      const start = periodOf(deps.now(), deps.refreshMs);
      const meta = await deps.store.screening.current();
      return meta && meta.confirmedAt >= start ? undefined : start;
    },
    async refresh(): Promise<JobOutcome<string>> {
      const url = deps.listUrl;
      if (!url) return done('off');
      const source = maskUrlCredentials(url);
      let bytes: Uint8Array;
      try {
        bytes = await deps.fetchList(url);
      } catch (err) {
        deps.log.error({ err, source }, 'the screening list could not be fetched; the list loaded before stays');
        return done('unfetched');
      }
      const r = await loadScreening(deps, { bytes, by: 'refresh', source, acceptRemovals: false });
      if (r.kind === 'refused') deps.log.error({ source, reason: r.reason }, r.message);
      return done(r.kind === 'refused' ? r.reason : r.kind);
    },
  };
}
