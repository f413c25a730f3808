/**
 * Charts drawn without a browser: a real PNG, decoded back, of the asked size, with one
 * bar per day and the area spanning every point — read from the pixels, not compared byte for byte.
 * Drawn in a chart thread that ends when idle, so its memory is returned.
 */
import { PNG } from 'pngjs';
import { describe, expect, it, vi } from 'vitest';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { PngRenderer, renderPng } from '../../src/charts/render-png.js';

const BLUE = [0x12, 0x64, 0xa3] as const;

const near = (png: PNG, x: number, y: number, rgb: readonly number[]) => {
  const i = (png.width * y + x) * 4;
  return rgb.every((c, k) => Math.abs((png.data[i + k] ?? 0) - c) <= 24);
};

/** Runs of the colour along one row: how many separate shapes of it the row crosses. */
function runsOnRow(png: PNG, y: number, rgb: readonly number[]): number {
  let runs = 0;
  let inside = false;
  for (let x = 0; x < png.width; x += 1) {
    const hit = near(png, x, y, rgb);
    if (hit && !inside) runs += 1;
    inside = hit;
  }
  return runs;
}

describe('renderPng', () => {
  it('draws a bar chart of the asked size with one bar per category and the limit as a line', async () => {
    const spec: ChartSpec = {
      kind: 'bar',
      title: 'Outflow per day, USDC',
      categories: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
      series: [
        { name: 'USDC out', values: [1200, 800, 4500, 300, 2000, 650, 9800] },
        { name: 'Limit', values: [10000, 10000, 10000, 10000, 10000, 10000, 10000], asLine: true },
      ],
      yLabel: 'USDC',
    };
    const png = PNG.sync.read(await renderPng(spec, { width: 720, height: 360 }));
    expect([png.width, png.height]).toEqual([720, 360]);
    // Just above the x axis (grid bottom 64 px) every bar is crossed once.
    expect(runsOnRow(png, 360 - 68, BLUE)).toBe(7);
  });

  it('draws an area chart whose fill spans every point', async () => {
    const days = Array.from({ length: 30 }, (_, i) => `${i + 1}`);
    const spec: ChartSpec = {
      kind: 'area',
      title: 'ops USDC balance, 30 days',
      categories: days,
      series: [{ name: 'USDC', values: days.map((_, i) => 50_000 + i * 1000) }],
    };
    const png = PNG.sync.read(await renderPng(spec, { width: 600, height: 300 }));
    expect([png.width, png.height]).toEqual([600, 300]);
    // The fill is one shape from the first point to the last on a row inside the plot.
    const row = 300 - 70;
    expect(runsOnRow(png, row, [0xc4, 0xd8, 0xe8])).toBe(1);
  });

  it('draws in a thread that ends after its idle time and starts again for the next chart', async () => {
    const renderer = new PngRenderer(50);
    try {
      const spec: ChartSpec = { kind: 'bar', title: 'One', categories: ['a'], series: [{ name: 'x', values: [1] }] };
      const [a, b] = await Promise.all([renderer.render(spec), renderer.render(spec, { width: 300, height: 200 })]);
      expect(renderer.running).toBe(true);
      expect(PNG.sync.read(a).width).toBe(720);
      expect(PNG.sync.read(b).width).toBe(300);
      await vi.waitFor(() => expect(renderer.running).toBe(false), { timeout: 5_000, interval: 20 });
      expect(PNG.sync.read(await renderer.render(spec)).height).toBe(360);
    } finally {
      await renderer.close();
    }
  });
});
