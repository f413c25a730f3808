/**
 * What `rampart schedules list` and `schedules show` print: pure functions from the series'
 * views (app/series/reads.ts) to text, and the values --json prints.
 */
import type { SeriesView } from '../../app/series/reads.js';
import { skipWords } from '../../domain/series.js';
import { formatTime } from './format-requests.js';
import { keyValues, table } from './table.js';

/** "live", "live, paused", "ended". */
const stateWords = (v: SeriesView): string => (v.paused && v.state === 'live' ? 'live, paused' : v.state);

const nextWords = (v: SeriesView): string | undefined => {
  const next = v.next[0];
  return next ? `run ${next.k} at ${formatTime(next.at)}` : undefined;
};

export function seriesListText(views: readonly SeriesView[]): string {
  if (views.length === 0) return 'No series yet.';
  return table(
    [
      { title: 'ID' },
      { title: 'STATE' },
      { title: 'SCHEDULE' },
      { title: 'EACH RUN' },
      { title: 'RUNS', align: 'right' },
      { title: 'DONE', align: 'right' },
      { title: 'SKIPPED', align: 'right' },
      { title: 'NEXT' },
      { title: 'REQUESTER' },
    ],
    views.map((v) => [
      v.id,
      stateWords(v),
      v.cadence,
      v.pays,
      String(v.runs),
      String(v.created.length),
      String(v.skipped.length),
      nextWords(v),
      v.requester,
    ]),
  );
}

export function seriesShowText(v: SeriesView): string {
  const head = keyValues([
    ['Series', v.id],
    ['State', stateWords(v)],
    ['Schedule', v.sentence],
    ['Requester', v.requester],
    ...(v.state === 'ended'
      ? ([['Ended', `${v.endedAt === undefined ? '' : formatTime(v.endedAt)} by ${v.endedBy ?? '?'}`]] as const)
      : []),
  ]);
  const rows = [
    ...v.created.map((r) => [String(r.k), formatTime(r.at), 'created', r.id] as const),
    // A person as the CLI names one (the id); Rampart's reason as it is.
    ...v.skipped.map(
      (r) => [String(r.k), formatTime(r.at), 'skipped', r.by ? skipWords(r, (user) => user) : r.why] as const,
    ),
    ...v.next.map((r) => [String(r.k), formatTime(r.at), 'to come', ''] as const),
  ].sort((a, b) => Number(a[0]) - Number(b[0]));
  const runs = table(
    [{ title: 'RUN', align: 'right' }, { title: 'AT' }, { title: 'STATE' }, { title: 'DETAIL' }],
    rows,
  );
  return `${head}\n\nRuns\n${runs}`;
}
