/** Latency summaries: nearest-rank percentiles over every sample, no smoothing. */

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export const PERCENTILES = ['p50', 'p95', 'p99', 'max'] as const;
export type Percentile = (typeof PERCENTILES)[number];

function rank(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, x) => sum + x, 0);
  return {
    count: sorted.length,
    p50: rank(sorted, 50),
    p95: rank(sorted, 95),
    p99: rank(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length > 0 ? total / sorted.length : Number.NaN,
  };
}

/** Rampart ÷ baseline per percentile. */
export function ratios(subject: Summary, baseline: Summary): Record<Percentile, number> {
  return {
    p50: subject.p50 / baseline.p50,
    p95: subject.p95 / baseline.p95,
    p99: subject.p99 / baseline.p99,
    max: subject.max / baseline.max,
  };
}

export const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');

/** A plain text table, first column left-aligned, the others right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const line = (r: readonly string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
