import { describe, expect, it } from 'vitest';
import { balanceCharts } from '../../../src/app/dashboard-charts.js';
import { balanceSummary, outflowSummary, shortDay } from '../../../src/charts/chart-summary.js';

describe('a chart’s summary line', () => {
  it('says now, the low and the high with their days, and the change over the span', () => {
    const days = ['2026-10-29', '2026-11-24', '2026-11-27', '2026-11-28'];
    expect(balanceSummary(days, [136_336.93, 156_123.55, 82_182.7, 119_975.5], '30-day')).toBe(
      'now 119,975.50 · 30-day low 82,182.70 (Nov 27) · high 156,123.55 (Nov 24) · \u221212 % vs 30 days ago',
    );
  });

  it('keeps decimals beyond two and leaves the change out when it started at zero', () => {
    expect(balanceSummary(['2026-11-27', '2026-11-28'], [0, 1_234.994], '2-day')).toBe(
      'now 1,234.994 · 2-day low 0.00 (Nov 27) · high 1,234.994 (Nov 28)',
    );
    expect(shortDay('2026-01-05')).toBe('Jan 5');
  });

  it('sums an outflow series and names its busiest day', () => {
    expect(outflowSummary(['2026-11-27', '2026-11-28'], [0, 25], '2-day')).toBe(
      '2-day total 25.00 · most on Nov 28: 25.00 · out on 1 of 2 days',
    );
  });

  it('comes with every App Home balance chart', () => {
    const at = (d: number) => Date.UTC(2026, 10, d, 12);
    const charts = balanceCharts(
      'ops',
      [
        { at: at(24), gap: false, available: { 'base:usdc': 156_123.55 } },
        { at: at(27), gap: false, available: { 'base:usdc': 82_182.7 } },
        { at: at(28), gap: false, available: { 'base:usdc': 119_975.5 } },
      ],
      'UTC',
    );
    expect(charts[0]?.summary).toBe(
      'now 119,975.50 · 30-day low 82,182.70 (Nov 27) · high 156,123.55 (Nov 24) · \u221223 % vs 4 days ago',
    );
  });
});
