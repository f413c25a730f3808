/**
 * Loading the sanctions list (`rampart screening load FILE`, and the worker's refresh from
 * SCREENING_LIST_URL): read into destination keys (domain/screening-list.ts), then swapped in by
 * the store's one script, which refuses an older list or one that drops addresses unless the
 * removals are accepted. Whatever fails, the list before stays, and the answer says why.
 */
import { listIdentity, type ScreeningMeta } from '../domain/rules/screening.js';
import { readScreeningList } from '../domain/screening-list.js';
import { maskUrlCredentials } from '../domain/url-credentials.js';
import type { AppDeps } from './deps.js';

export type ScreeningLoadOutcome =
  | { kind: 'loaded'; meta: ScreeningMeta; removed: string[]; message: string }
  | { kind: 'confirmed'; meta: ScreeningMeta; message: string }
  | { kind: 'refused'; reason: 'unreadable' | 'older' | 'removals' | 'busy'; message: string };

export interface LoadRequest {
  bytes: Uint8Array;
  /** Who loads it ("cli", or "refresh"). */
  by: string;
  /** A file name, or the URL without credentials. */
  source: string;
  acceptRemovals: boolean;
}

const KEPT = 'The list loaded before stays in force.';

export async function loadScreening(
  deps: Pick<AppDeps, 'store' | 'now' | 'log'>,
  r: LoadRequest,
): Promise<ScreeningLoadOutcome> {
  const now = deps.now();
  const read = readScreeningList(r.bytes, new Date(now).toISOString().slice(0, 10));
  if (!read.ok) return { kind: 'refused', reason: 'unreadable', message: `${read.problem} ${KEPT}` };
  const { list } = read;
  const out = await deps.store.screening.load(list, {
    by: r.by,
    source: r.source,
    now,
    acceptRemovals: r.acceptRemovals,
  });
  const named = `${listIdentity(list)} (${list.keys.length.toLocaleString('en-US')} addresses)`;
  switch (out.kind) {
    case 'loaded':
      deps.log.info(
        { list: list.name, published: list.published, count: list.keys.length, removed: out.removed.length, by: r.by },
        'screening list loaded',
      );
      return {
        ...out,
        message: `Loaded the ${named}${out.removed.length > 0 ? `; ${out.removed.length} address(es) removed, listed in the screening history` : ''}.`,
      };
    case 'confirmed':
      return { ...out, message: `The ${named} is already loaded; it is confirmed as of now.` };
    case 'older':
      return {
        kind: 'refused',
        reason: 'older',
        message: `The ${named} is older than the list loaded (published ${out.current}); load the newest list. ${KEPT}`,
      };
    case 'removals':
      return {
        kind: 'refused',
        reason: 'removals',
        message: `The ${named} drops ${out.count} address(es) the loaded list holds (such as ${out.sample[0] ?? '?'}); check them, then load it again with --accept-removals. ${KEPT}`,
      };
    case 'busy':
      return {
        kind: 'refused',
        reason: 'busy',
        message: `Another load of the screening list is still running; try again in a minute. ${KEPT}`,
      };
  }
}

export interface ScreeningStatus {
  mode: string;
  meta: ScreeningMeta | undefined;
  /** "OFAC SDN list of 2026-11-27", as cards name it. */
  identity: string | undefined;
  /** Since the last load or fetch that confirmed it. */
  ageMs: number | undefined;
  stale: boolean;
  maxAgeMs: number;
  listUrl: string | undefined;
}

export async function screeningStatus(deps: Pick<AppDeps, 'store' | 'now' | 'config'>): Promise<ScreeningStatus> {
  const meta = await deps.store.screening.current();
  const { mode, maxAgeMs, listUrl } = deps.config.screening;
  const ageMs = meta ? deps.now() - meta.confirmedAt : undefined;
  return {
    mode,
    meta,
    identity: meta ? listIdentity(meta) : undefined,
    ageMs,
    stale: ageMs !== undefined && ageMs > maxAgeMs,
    maxAgeMs,
    listUrl: listUrl === undefined ? undefined : maskUrlCredentials(listUrl),
  };
}
