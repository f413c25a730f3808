/**
 * What App Home shows, read through one use case — the open requests, the recent
 * ones for a VIEWER, the freeze — so the Slack listener draws and never reads the store.
 */
import type { RequestRecord } from '../domain/request.js';
import type { ControlStore, FreezeState } from '../store/controls.js';
import type { RequestStore } from '../store/requests.js';
import { withMoved } from './batch-moved.js';

export interface HomeDeps {
  store: Pick<RequestStore, 'openIds' | 'recentIds' | 'get' | 'idsInState' | 'batches' | 'executions'>;
  controls: Pick<ControlStore, 'freeze'>;
}

export interface HomeRead {
  /** Open requests (pending, approved, executing), newest first. */
  open: RequestRecord[];
  /** The last 15 requests, newest first; empty for someone who is not a VIEWER. */
  recent: RequestRecord[];
  freeze: FreezeState | undefined;
  /** Outcome-unknown requests with a not-paid proposal waiting for a second approver. */
  proposals: RequestRecord[];
}

/** How many outcome-unknown requests App Home looks through for a pending not-paid proposal. */
export const UNKNOWN_ON_HOME = 50;

/** How many recent requests App Home lists for a VIEWER. */
export const RECENT_ON_HOME = 15;

async function records(deps: HomeDeps, ids: string[]): Promise<RequestRecord[]> {
  // A finished batch's line says what it moved (read from its rows, app/batch-moved.ts).
  const all = await Promise.all(
    ids.map(async (id) => {
      const r = await deps.store.get(id);
      return r && withMoved(deps.store, r);
    }),
  );
  return all.filter((r): r is RequestRecord => r !== undefined).sort((a, b) => b.sealed.createdAt - a.sealed.createdAt);
}

export async function readHome(deps: HomeDeps, viewer: boolean): Promise<HomeRead> {
  const [open, recent, freeze, unknown] = await Promise.all([
    deps.store.openIds().then((ids) => records(deps, ids)),
    viewer ? deps.store.recentIds(RECENT_ON_HOME).then((ids) => records(deps, ids)) : Promise.resolve([]),
    deps.controls.freeze(),
    deps.store.idsInState('unknown', UNKNOWN_ON_HOME).then((ids) => records(deps, ids)),
  ]);
  const proposals = unknown.filter((r) => r.executions.some((e) => e.state === 'unknown' && e.proposal));
  return { open, recent, freeze, proposals };
}
