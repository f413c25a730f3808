/**
 * The warnings a card carries about earlier payments, read at
 * submission, never on the approve path: repeats of a payment pending, approved, executing,
 * succeeded or unknown within BATCH_REPEAT_WINDOW (single requests and batch rows alike), and a
 * batch file submitted again within 30 days. Sealed with the request: the card shows what was
 * true when it was asked.
 */
import type { RowRepeat } from '../domain/repeats.js';
import { byUrgency, paymentDigest, type RepeatHit, SAME_FILE_WINDOW_MS } from '../domain/repeats.js';
import type { ServiceCall } from '../domain/request.js';
import type { SameFile } from '../store/recent-payments.js';
import type { AppDeps } from './deps.js';

type RepeatDeps = Pick<AppDeps, 'store' | 'config' | 'now'>;

/** A single card names at most this many earlier payments. */
const SHOWN_PER_REQUEST = 3;
/** The newest batches of the same file named on a card. */
const SAME_FILE_SHOWN = 3;
/** A batch keeps at most this many repeated rows with the card (the count says the rest). */
export const KEPT_ROW_REPEATS = 50;

/** Earlier payments one transfer or offramp repeats, unknown first. */
export async function repeatsOfCall(deps: RepeatDeps, call: ServiceCall): Promise<RepeatHit[]> {
  const digest = paymentDigest(call);
  if (!digest) return [];
  const { hits } = await deps.store.recent.lookup([digest], deps.now() - deps.config.batch.repeatWindowMs);
  return byUrgency(hits.get(digest) ?? []).slice(0, SHOWN_PER_REQUEST);
}

export interface BatchHistoryWarnings {
  /** Rows repeating an earlier payment, the most urgent earlier payment each; unknown first, then by row. */
  repeats: RowRepeat[];
  /** How many rows repeat an earlier payment in all (repeats keeps at most KEPT_ROW_REPEATS). */
  repeatedRows: number;
  /** Batches of the same file in the last 30 days, newest first (at most three). */
  sameFile: SameFile[];
}

/** One pipelined read for every row and the file (a second only when something was found). */
export async function batchHistoryWarnings(
  deps: RepeatDeps,
  rows: readonly { row: number; call: ServiceCall }[],
  fingerprint: string,
): Promise<BatchHistoryWarnings> {
  const now = deps.now();
  const digests = rows.map((r) => paymentDigest(r.call));
  const { hits, sameFile } = await deps.store.recent.lookup(
    digests.filter((d): d is string => d !== undefined),
    now - deps.config.batch.repeatWindowMs,
    { fingerprint, since: now - SAME_FILE_WINDOW_MS },
  );
  const all: RowRepeat[] = [];
  rows.forEach((r, i) => {
    const digest = digests[i];
    const first = digest ? byUrgency(hits.get(digest) ?? [])[0] : undefined;
    if (first) all.push({ row: r.row, ...first });
  });
  const unknownFirst = (a: RowRepeat, b: RowRepeat) =>
    Number(b.state === 'unknown') - Number(a.state === 'unknown') || a.row - b.row;
  return {
    repeats: all.sort(unknownFirst).slice(0, KEPT_ROW_REPEATS),
    repeatedRows: all.length,
    sameFile: [...sameFile].sort((a, b) => b.at - a.at).slice(0, SAME_FILE_SHOWN),
  };
}
