import { describe, expect, it } from 'vitest';
import { type ChartSpec, chartBlock, chartText } from '../../../src/charts/chart-spec.js';

const week: ChartSpec = {
  kind: 'bar',
  title: 'Outflow per day, USDC — last 7 days (ops and treasury wallets)',
  categories: ['Mon 16', 'Tue 17', 'Wed 18', 'Thu 19', 'Fri 20', 'Sat 21', 'Sun 22'],
  series: [
    { name: 'USDC out', values: [1200, 0, 4500.5, 300, 0, 0, 9800] },
    { name: 'Limit 10,000 / 24 h', values: [10000, 10000, 10000, 10000, 10000, 10000, 10000], asLine: true },
  ],
  yLabel: 'USDC',
};

describe('chartBlock', () => {
  it("builds Slack's data_visualization block within its limits", () => {
    const block = chartBlock(week);
    expect(block.title).toHaveLength(50);
    expect(block.title.endsWith('…')).toBe(true);
    // Slack's block cannot draw the limit as a line over bars: the whole chart is lines.
    expect(block.chart.type).toBe('line');
    expect(chartBlock({ ...week, series: week.series.slice(0, 1) }).chart.type).toBe('bar');
    expect(block.chart.axis_config).toEqual({ categories: week.categories, y_label: 'USDC' });
    expect(block.chart.series[0]?.data[2]).toEqual({ label: 'Wed 18', value: 4500.5 });
    expect(block.chart.series).toHaveLength(2);
  });

  it('refuses more than six series and a series without one value per category', () => {
    const seven = {
      ...week,
      series: Array.from({ length: 7 }, (_, i) => ({ name: `s${i}`, values: [1, 2, 3, 4, 5, 6, 7] })),
    };
    expect(() => chartBlock(seven)).toThrow();
    expect(() => chartBlock({ ...week, series: [{ name: 'short', values: [1, 2] }] })).toThrow(
      'every series needs one value per category',
    );
  });
});

describe('chartText', () => {
  it('says the same numbers in words', () => {
    expect(chartText({ ...week, series: week.series.slice(0, 1) })).toBe(
      'Outflow per day, USDC — last 7 days (ops and treasury wallets) (USDC). USDC out: Mon 16 1,200, Tue 17 0, Wed 18 4,500.5, Thu 19 300, Fri 20 0, Sat 21 0, Sun 22 9,800.',
    );
  });
});
