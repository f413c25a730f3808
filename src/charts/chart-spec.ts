/**
 * One chart, described once: Slack's own `data_visualization` block where the
 * workspace accepts it, a PNG rendered in the process where it does not (render-png.ts), with its
 * summary line in text before both (chart-summary.ts) and its numbers as the PNG's alt text. Pure: no I/O. `@slack/types` has no type for the block, so
 * its shape is typed here with zod, with Slack's limits (title ≤ 50, ≤ 6 series as the issue
 * asks, category labels ≤ 20, axis labels ≤ 50).
 * Reference: https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block
 */
import { z } from 'zod';

export interface ChartSeries {
  name: string;
  /** One value per category, in the categories' order. */
  values: readonly number[];
  /**
   * A velocity limit: a dashed line over the bars in the PNG. Slack's block cannot mix bars and
   * lines, so a bar chart with such a series is sent to Slack as a line chart (every series a line).
   */
  asLine?: boolean;
}

export interface ChartSpec {
  kind: 'bar' | 'area';
  title: string;
  categories: readonly string[];
  series: readonly ChartSeries[];
  yLabel?: string;
}

const label = (max: number) => z.string().min(1).max(max);

const seriesChart = z.object({
  series: z
    .array(z.object({ name: label(50), data: z.array(z.object({ label: label(20), value: z.number().finite() })) }))
    .min(1)
    .max(6),
  axis_config: z.object({
    categories: z.array(label(20)).min(1),
    x_label: label(50).optional(),
    y_label: label(50).optional(),
  }),
});

export const dataVisualizationBlock = z
  .object({
    type: z.literal('data_visualization'),
    title: label(50),
    chart: z.discriminatedUnion('type', [
      seriesChart.extend({ type: z.literal('bar') }),
      seriesChart.extend({ type: z.literal('area') }),
      seriesChart.extend({ type: z.literal('line') }),
    ]),
  })
  .refine(
    (b) => b.chart.series.every((s) => s.data.length === b.chart.axis_config.categories.length),
    'every series needs one value per category',
  );
export type DataVisualizationBlock = z.infer<typeof dataVisualizationBlock>;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Slack's chart block for the spec; throws when the spec cannot fit Slack's limits. */
export function chartBlock(spec: ChartSpec): DataVisualizationBlock {
  const categories = spec.categories.map((c) => cut(c, 20));
  return dataVisualizationBlock.parse({
    type: 'data_visualization',
    title: cut(spec.title, 50),
    chart: {
      type: spec.kind === 'bar' && spec.series.some((s) => s.asLine) ? 'line' : spec.kind,
      series: spec.series.map((s) => ({
        name: cut(s.name, 50),
        data: s.values.map((value, i) => ({ label: categories[i] ?? '', value })),
      })),
      axis_config: { categories, ...(spec.yLabel ? { y_label: cut(spec.yLabel, 50) } : {}) },
    },
  });
}

const figure = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/**
 * The chart's numbers in words, for alt text and the text beside the chart: never colour or a
 * picture alone.
 */
export function chartText(spec: ChartSpec): string {
  const lines = spec.series.map(
    (s) => `${s.name}: ${s.values.map((v, i) => `${spec.categories[i] ?? ''} ${figure(v)}`).join(', ')}`,
  );
  return `${spec.title}${spec.yLabel ? ` (${spec.yLabel})` : ''}. ${lines.join('. ')}.`;
}
