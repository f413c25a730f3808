/**
 * The buttons a live series offers wherever it shows (its card, the notice before a run, App
 * Home's "Coming up"): skip one run, end the series. A button's value names the series and, for
 * a skip, the run, so a click on an old notice skips exactly the run it named.
 */
export const SERIES_ACTIONS = { skipRun: 'series_skip_run', end: 'series_end' } as const;

/** `S-12:3` for run 3 of S-12. */
export const skipRunValue = (seriesId: string, k: number) => `${seriesId}:${k}`;

/** The series and run a Skip button names; undefined for a value no Skip button writes. */
export function parseSkipRunValue(value: string): { seriesId: string; k: number } | undefined {
  const m = /^(S-\d+):(\d+)$/.exec(value);
  if (!m) return undefined;
  const k = Number(m[2]);
  return Number.isSafeInteger(k) && k >= 1 ? { seriesId: m[1] as string, k } : undefined;
}
