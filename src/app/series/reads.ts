/**
 * Reads of series that decide nothing: the list (`/schedules`, `rampart schedules list`), one
 * series in full (`rampart schedules show`), and the next runs across live series (App Home's
 * "Coming up").
 */
import { formatAmount } from '../../domain/amount.js';
import type { RequestRecord, SealedRequest } from '../../domain/request.js';
import { scheduleWords } from '../../domain/schedule-words.js';
import { isSeriesId, runAmountOf, type SkipMark, sealedSeriesSentence } from '../../domain/series.js';
import type { SeriesRead, SeriesStore } from '../../store/series.js';
import type { AppDeps } from '../deps.js';

export type SeriesReadDeps = Pick<AppDeps, 'store' | 'now'> & { series: SeriesStore };

/** A run still to come: run k of the series, at `at` (epoch ms). */
export interface SeriesRunTime {
  k: number;
  at: number;
}

export interface SeriesView {
  id: string;
  /** pending, live, ended, denied, cancelled or expired (domain/series.ts SeriesState). */
  state: string;
  /** Live but paused by today's rules: no run is created until a fresh approval. */
  paused: boolean;
  requester: string;
  /** "Monthly on the 1st at 09:00 Africa/Lagos". */
  cadence: string;
  /** The IANA zone its times are in. */
  zone: string;
  /** The card's sentence ("…, 12 runs, 1,200.00 USDC each to …, 14,400.00 in all; first run …"). */
  sentence: string;
  /** What one run pays: "1,200.00 USDC to 0x12ab…9f3c". */
  pays: string;
  runs: number;
  /** Runs not yet created nor skipped, soonest first (none once the series ended or was refused). */
  next: SeriesRunTime[];
  /** Runs skipped: who skipped each (and by which door), or why Rampart did (domain/series.ts skipWords says it). */
  skipped: (SkipMark & { at: number })[];
  created: (SeriesRunTime & { id: string })[];
  endedAt?: number | undefined;
  endedBy?: string | undefined;
}

/** One line of App Home's "Coming up": the next run of a live series, and what it pays. */
export interface ComingRun {
  seriesId: string;
  k: number;
  at: number;
  /** "1,200.00 USDC to 0x12ab…9f3c". */
  pays: string;
}

/** Where one run's money goes, in plain words (no Slack markup: each door escapes its own). */
export function seriesTo(f: SealedRequest): string {
  const { call, display } = f;
  if (call.kind === 'transfer') {
    if (display.ownWallet) return `${display.ownWallet} (own wallet)`;
    const a = call.body.receiver;
    const short = a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
    return display.bookEntry ? `${display.bookEntry.name} ${short}` : short;
  }
  if (call.kind === 'offramp') return display.beneficiaryLabel ?? call.body.beneficiary_id;
  return display.beneficiaryLabel ?? call.kind;
}

function paysOf(f: SealedRequest): string {
  const run = runAmountOf(f.call);
  if (run) return `${formatAmount(run.perRun)} ${run.assetCode} to ${seriesTo(f)}`;
  const { call } = f;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return `${call.kind} to ${seriesTo(f)}`;
  return `${call.body.amount} ${call.body.asset} to ${seriesTo(f)}`;
}

/**
 * A series' view from its one read (SeriesStore.read: its record, runs and facts in one round
 * trip) and, once it ended, who ended it (from its history).
 */
function viewFrom(now: number, read: SeriesRead, endedBy?: string): SeriesView | undefined {
  const { record } = read;
  if (!record?.sealed.schedule || record.shape !== 'series') return undefined;
  const { sealed } = record;
  const schedule = record.sealed.schedule;
  const marks = [...read.marks.values()].sort((a, b) => a.k - b.k);
  const state = record.approvalState as string;
  const atOf = (k: number) => schedule.runs[k - 1] ?? 0;
  const open = state === 'live' || state === 'pending';
  return {
    id: sealed.id,
    state,
    paused: read.paused,
    requester: sealed.requester,
    cadence: scheduleWords(schedule).cadence,
    zone: schedule.zone,
    sentence: sealedSeriesSentence(sealed, seriesTo(sealed)) ?? paysOf(sealed),
    pays: paysOf(sealed),
    runs: schedule.runs.length,
    next: open
      ? schedule.runs.map((at, i) => ({ k: i + 1, at })).filter((r) => !read.marks.has(r.k) && r.at > now)
      : [],
    skipped: marks.flatMap((m) => (m.status === 'skipped' ? [{ ...m, at: atOf(m.k) }] : [])),
    created: marks.flatMap((m) => (m.status === 'created' ? [{ k: m.k, at: atOf(m.k), id: m.id }] : [])),
    ...(state === 'ended' ? { endedAt: read.endedAt, endedBy } : {}),
  };
}

/**
 * The views of `ids`: every series read at once (one SeriesStore.read each), then the ended
 * ones' histories at once, for who ended them.
 */
async function viewsOf(deps: SeriesReadDeps, ids: string[]): Promise<SeriesView[]> {
  const reads = await Promise.all(ids.map((id) => deps.series.read(id)));
  const endedBy = await Promise.all(
    reads.map(async (r, i) =>
      (r.record?.approvalState as string | undefined) === 'ended'
        ? (await deps.store.history(ids[i] as string)).find((h) => h.event === 'ended')?.by
        : undefined,
    ),
  );
  const now = deps.now();
  return reads.flatMap((r, i) => viewFrom(now, r, endedBy[i]) ?? []);
}

/** A series' view when its record was read elsewhere (a card redraw): the series read once more, whole. */
export async function viewOf(deps: SeriesReadDeps, record: RequestRecord): Promise<SeriesView | undefined> {
  if (record.shape !== 'series' || !record.sealed.schedule) return undefined;
  return (await viewsOf(deps, [record.sealed.id]))[0];
}

/** One series in full, or undefined when there is no such series. */
export async function showSeries(deps: SeriesReadDeps, id: string): Promise<SeriesView | undefined> {
  return isSeriesId(id) ? (await viewsOf(deps, [id]))[0] : undefined;
}

/** Every series, newest first (at most `limit`): live and pending ones, then the rest. */
export async function listSeries(deps: SeriesReadDeps, limit = 100): Promise<SeriesView[]> {
  const views = await viewsOf(deps, await deps.series.ids(limit));
  const rank = (v: SeriesView) => (v.state === 'live' ? 0 : v.state === 'pending' ? 1 : 2);
  return views.sort((a, b) => rank(a) - rank(b));
}

/** The next runs across live, unpaused series, soonest first: App Home's "Coming up". */
export async function comingUp(deps: SeriesReadDeps, limit = 5): Promise<ComingRun[]> {
  const live = (await deps.store.openIds()).filter(isSeriesId);
  const views = await viewsOf(deps, live);
  return views
    .flatMap((v) =>
      v.state === 'live' && !v.paused ? v.next.map((r) => ({ seriesId: v.id, k: r.k, at: r.at, pays: v.pays })) : [],
    )
    .sort((a, b) => a.at - b.at || a.seriesId.localeCompare(b.seriesId) || a.k - b.k)
    .slice(0, limit);
}
