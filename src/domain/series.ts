/**
 * A series (recurring payouts): an approval of shape `series` whose runs are approvals of their
 * own. Its states (DESIGN "States, ids and hashes": pending → live → ended, and denied, cancelled
 * or expired while pending), its ids, the run key a run's creation is claimed under, its total,
 * and what its card says. Pure.
 */
import { type Amount, amountFromNumber, formatAmount } from './amount.js';
import { assetInfo, parseAssetId } from './assets.js';
import type { SealedRequest } from './request.js';
import type { SealedSchedule } from './schedule.js';
import { scheduleWords } from './schedule-words.js';

export type SeriesState = 'pending' | 'live' | 'ended' | 'denied' | 'cancelled' | 'expired';

const SERIES_ID = /^S-[1-9]\d*$/;
export const isSeriesId = (id: string): boolean => SERIES_ID.test(id);
export const seriesIdOf = (seq: number): string => `S-${seq}`;

/**
 * The key one run's creation is claimed under, `S-n:k`: a Redis key, never an id (ids carry no
 * `:`), so a second creation of the same run by any worker finds it taken.
 */
export function runKey(seriesId: string, k: number): string {
  if (!isSeriesId(seriesId) || !Number.isInteger(k) || k < 1) throw new Error(`no run ${k} of ${seriesId}`);
  return `${seriesId}:${k}`;
}

/**
 * A skipped run: by a person (`by`, their user id, and `source`, the door as a history entry
 * words it: "from the CLI"), or by Rampart (no `by`) for the reason `why`. A person's mark keeps
 * `why` too ("skipped by U123 (from the CLI)"): series-run.lua answers it to a run's creation,
 * and a process of the version before `by` reads only it.
 */
export interface SkipMark {
  k: number;
  status: 'skipped';
  why: string;
  by?: string | undefined;
  source?: string | undefined;
}

/** What a series records of each run: created as an approval, or skipped (SkipMark). */
export type RunMark = { k: number; status: 'created'; id: string } | SkipMark;

/** Who skips a run: a person (and the door they used), or Rampart with its reason. */
export type SkipBy = { by: string; source?: string | undefined } | { why: string };

/** The mark a skip stores (series-skip.lua writes it as it is). */
export function skipMarkOf(k: number, skip: SkipBy): SkipMark {
  if ('why' in skip) return { k, status: 'skipped', why: skip.why };
  const source = skip.source ? ` (${skip.source})` : '';
  return {
    k,
    status: 'skipped',
    why: `skipped by ${skip.by}${source}`,
    by: skip.by,
    ...(skip.source ? { source: skip.source } : {}),
  };
}

/** A person's skip as marks written before `by` said it, in `why` alone. */
const OLD_PERSON_SKIP = /^skipped by (\S+)(?: \((.+)\))?$/;

/**
 * A stored run mark, read leniently: a person's skip written before `by` (its `why` alone:
 * "skipped by U123 (from the CLI)") is read with its `by` and `source`; a field that is not
 * JSON, or not a mark, is undefined.
 */
export function decodeRunMark(json: string): RunMark | undefined {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const m = v as Record<string, unknown>;
  const k = m.k;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) return undefined;
  if (m.status === 'created') return typeof m.id === 'string' ? { k, status: 'created', id: m.id } : undefined;
  if (m.status !== 'skipped') return undefined;
  const why = typeof m.why === 'string' ? m.why : '';
  if (typeof m.by === 'string' && m.by !== '')
    return { k, status: 'skipped', why, by: m.by, ...(typeof m.source === 'string' ? { source: m.source } : {}) };
  const old = OLD_PERSON_SKIP.exec(why);
  if (old?.[1]) return { k, status: 'skipped', why, by: old[1], ...(old[2] ? { source: old[2] } : {}) };
  return { k, status: 'skipped', why };
}

/**
 * How a skip is said after "Run 3 was ": "skipped by @amara (from the CLI)" or "skipped: why".
 * `name` writes a person (Slack: a mention; the CLI: the id), `plain` any other text (Slack
 * escapes it).
 */
export function skipWords(
  m: SkipMark,
  name: (user: string) => string,
  plain: (text: string) => string = (text) => text,
): string {
  if (m.by) return `skipped by ${name(m.by)}${m.source ? plain(` (${m.source})`) : ''}`;
  return m.why ? `skipped: ${plain(m.why)}` : 'skipped';
}

/** Every run sends the same sealed exact amount; every amount rule judges the series by this. */
export const seriesTotal = (perRun: Amount, runs: number): Amount => ({
  units: perRun.units * BigInt(runs),
  decimals: perRun.decimals,
});

export interface SeriesSummary {
  schedule: Pick<SealedSchedule, 'every' | 'at' | 'zone' | 'runs'>;
  perRun: Amount;
  assetCode: string;
  /** Who the runs pay, as the card names a destination ("Acme payroll wallet"). */
  to: string;
}

/**
 * The card's one line: "Monthly on the 1st at 09:00 Africa/Lagos, 12 runs, 1,200.00 USDC each to
 * Acme payroll wallet, 14,400.00 in all; first run 2026-12-01".
 */
export function seriesSentence(s: SeriesSummary): string {
  const w = scheduleWords(s.schedule);
  const total = seriesTotal(s.perRun, s.schedule.runs.length);
  return `${w.cadence}, ${w.runs}, ${formatAmount(s.perRun)} ${s.assetCode} each to ${s.to}, ${formatAmount(total)} in all; first run ${w.first}`;
}

/** What one run of a sealed series pays: its call's kind, asset and exact amount. */
export interface RunAmount {
  kind: 'transfer' | 'offramp';
  /** The asset id as sealed (as a key's limits name it) and its code (as the thresholds name it). */
  asset: string;
  assetCode: string;
  perRun: Amount;
}

/**
 * The one reading of a sealed call as a run's amount: a transfer or an offramp in an asset
 * Rampart knows, its amount in that asset's units; undefined for any other call (nothing can
 * judge or say its amount).
 */
export function runAmountOf(call: SealedRequest['call']): RunAmount | undefined {
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return undefined;
  const id = parseAssetId(call.body.asset);
  if (!id) return undefined;
  const asset = assetInfo(id);
  return {
    kind: call.kind,
    asset: call.body.asset,
    assetCode: asset.code,
    perRun: amountFromNumber(call.body.amount, asset.decimals),
  };
}

/** The sentence of a sealed series of one payment, `to` as its reader names the destination. */
export function sealedSeriesSentence(f: Pick<SealedRequest, 'call' | 'schedule'>, to: string): string | undefined {
  const run = runAmountOf(f.call);
  if (!f.schedule || !run) return undefined;
  return seriesSentence({ schedule: f.schedule, perRun: run.perRun, assetCode: run.assetCode, to });
}

/** The notice before a run: "Next run tomorrow 09:00: 1,200.00 USDC to Acme payroll wallet". */
export function runNoticeText(n: { when: string; perRun: Amount; assetCode: string; to: string }): string {
  return `Next run ${n.when}: ${formatAmount(n.perRun)} ${n.assetCode} to ${n.to}`;
}

/** The notice of a sealed series of one payment (the run's time already in words). */
export function sealedRunNotice(f: Pick<SealedRequest, 'call'>, when: string, to: string): string | undefined {
  const run = runAmountOf(f.call);
  return run ? runNoticeText({ when, perRun: run.perRun, assetCode: run.assetCode, to }) : undefined;
}
