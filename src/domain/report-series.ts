/**
 * The report's series: each series with something in the window (a run created, a run skipped,
 * its end) or still live, with its skipped runs and why, and who ended it, read from the
 * series' own history (store/lua/series-*.lua write it). Its runs are payments of their own
 * (Payment.run names them). Pure.
 */
import type { HistoryEntry, RequestRecord } from './request.js';
import { sealedSeriesSentence } from './series.js';

export interface SeriesReportLine {
  id: string;
  /** The series' own state: live, ended, pending… */
  state: string;
  /** "Every week at 09:00 UTC, 4 runs, 100.00 USDC each to 0x12…, 400.00 in all; first run …". */
  schedule: string | undefined;
  /** Runs created in the window, by k, with their request ids. */
  runs: { k: number; id: string; at: number }[];
  /** Runs skipped in the window, with why (a person: "skipped by U123"). */
  skipped: { k: number; why: string; at: number; by: string | undefined }[];
  ended: { at: number; by: string | undefined } | undefined;
}

/** "run 3: why" → [3, why]. */
function runDetail(detail: string | undefined): [number, string] | undefined {
  const m = /^run (\d+): (.*)$/s.exec(detail ?? '');
  return m ? [Number(m[1]), m[2] ?? ''] : undefined;
}

export function seriesReportLines(
  records: readonly RequestRecord[],
  histories: ReadonlyMap<string, readonly HistoryEntry[]>,
  window: { since: number; until: number },
): SeriesReportLine[] {
  const inWindow = (e: HistoryEntry) => e.at >= window.since && e.at <= window.until;
  const lines: SeriesReportLine[] = [];
  for (const r of records) {
    if (r.shape !== 'series') continue;
    const history = (histories.get(r.sealed.id) ?? []).filter(inWindow);
    const runs = history.flatMap((e) => {
      const d = e.event === 'run' ? runDetail(e.detail) : undefined;
      return d ? [{ k: d[0], id: d[1], at: e.at }] : [];
    });
    const skipped = history.flatMap((e) => {
      const d = e.event === 'run skipped' ? runDetail(e.detail) : undefined;
      return d ? [{ k: d[0], why: d[1], at: e.at, by: e.by }] : [];
    });
    const end = history.find((e) => e.event === 'ended');
    const state = r.approvalState as string;
    if (state !== 'live' && runs.length === 0 && skipped.length === 0 && !end) continue;
    const { call } = r.sealed;
    const to =
      call.kind === 'transfer' ? call.body.receiver : call.kind === 'offramp' ? call.body.beneficiary_id : undefined;
    lines.push({
      id: r.sealed.id,
      state,
      schedule: sealedSeriesSentence(r.sealed, r.sealed.display.beneficiaryLabel ?? to ?? ''),
      runs,
      skipped,
      ended: end ? { at: end.at, by: end.by } : undefined,
    });
  }
  return lines;
}
