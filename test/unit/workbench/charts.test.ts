/** The workbench draws Slack's chart and table blocks, and uploaded images, plainly. */
import { describe, expect, it } from 'vitest';
import { blockHtml, type RenderContext } from '../../../devkit/workbench/render/blocks.js';
import { chartBlock } from '../../../src/charts/chart-spec.js';

const ctx: RenderContext = { personName: () => undefined, channelName: () => undefined, people: [], channels: [] };

describe('workbench charts', () => {
  it('draws a bar per value of every series of a data_visualization block', () => {
    const block = chartBlock({
      kind: 'bar',
      title: 'USDC out per day',
      categories: ['11-16', '11-17', '11-18'],
      series: [
        { name: 'USDC out', values: [100, 290.5, 0] },
        { name: 'USDT out', values: [500, 0, 20] },
      ],
    });
    const html = blockHtml(block, ctx);
    expect(html).not.toContain('Not rendered');
    expect(html.match(/class="wb-chart-bar"/g)).toHaveLength(6);
    expect(html).toContain('USDC out per day');
    expect(html).toContain('11-17');
  });

  it('draws a limit as a line without a fill: a bar chart with a limit goes to Slack as a line chart', () => {
    const block = chartBlock({
      kind: 'bar',
      title: 'ops: USDC out per day',
      categories: ['11-16', '11-17'],
      series: [
        { name: 'ops USDC out', values: [100, 290.5] },
        { name: 'ops limit 500.00 per 24 h', values: [500, 500], asLine: true },
      ],
    });
    const html = blockHtml(block, ctx);
    expect(html).toContain('data-chart-type="line"');
    expect(html.match(/<polyline/g)).toHaveLength(2);
    expect(html).not.toContain('wb-chart-area');
    expect(html).toContain('ops limit 500.00 per 24 h');
  });

  it('draws an area per series, a table, and an uploaded image by its file id', () => {
    const area = chartBlock({
      kind: 'area',
      title: 'ops',
      categories: ['a', 'b'],
      series: [{ name: 'x', values: [1, 2] }],
    });
    expect(blockHtml(area, ctx).match(/class="wb-chart-area"/g)).toHaveLength(1);
    const table = blockHtml(
      {
        type: 'data_table',
        rows: [
          ['id', 'amount'],
          ['R-1', { type: 'raw_text', text: '12.5' }],
        ],
      },
      ctx,
    );
    expect(table).toContain('<th>amount</th>');
    expect(table).toContain('<td>12.5</td>');
    const image = blockHtml({ type: 'image', slack_file: { id: 'F0CHART' }, alt_text: 'USDC out: 100' }, ctx);
    expect(image).toContain('src="/api/file?id=F0CHART&amp;inline=1"');
    expect(image).toContain('alt="USDC out: 100"');
  });
});
