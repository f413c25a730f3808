/**
 * Slack's `data_visualization` and `data_table` blocks drawn by the workbench — a plain
 * SVG of the same data (bars or an area per series, the category labels, a legend), not Slack's
 * own look. Pure: HTML out, every string escaped.
 */
import { attrs, escapeHtml, isObject, type JsonObject, list, str } from './html.js';

const COLOURS = ['#1264A3', '#2EB67D', '#ECB22E', '#E01E5A', '#36C5F0', '#4A154B'];
const W = 560;
const H = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 40 };

interface Series {
  name: string;
  values: number[];
}

function seriesOf(chart: JsonObject, categories: string[]): Series[] {
  return list(chart.series).map((s) => {
    const o = isObject(s) ? s : {};
    const byLabel = new Map(
      list(o.data).map((d) => (isObject(d) ? [str(d.label) ?? '', Number(d.value) || 0] : ['', 0]) as [string, number]),
    );
    return { name: str(o.name) ?? '', values: categories.map((c) => byLabel.get(c) ?? 0) };
  });
}

function plot(kind: string, categories: string[], series: Series[]): string {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const slot = innerW / Math.max(1, categories.length);
  const shapes: string[] = [];
  series.forEach((s, si) => {
    const colour = COLOURS[si % COLOURS.length] ?? '#1264A3';
    if (kind === 'bar') {
      const bw = (slot * 0.8) / series.length;
      s.values.forEach((v, i) => {
        const x = PAD.left + i * slot + slot * 0.1 + si * bw;
        shapes.push(
          `<rect${attrs({ class: 'wb-chart-bar', x: x.toFixed(1), y: y(v).toFixed(1), width: bw.toFixed(1), height: (PAD.top + innerH - y(v)).toFixed(1), fill: colour })}><title>${escapeHtml(`${s.name} ${categories[i] ?? ''}: ${v}`)}</title></rect>`,
        );
      });
    } else {
      const pts = s.values.map((v, i) => `${(PAD.left + i * slot + slot / 2).toFixed(1)},${y(v).toFixed(1)}`);
      const first = (PAD.left + slot / 2).toFixed(1);
      const last = (PAD.left + (s.values.length - 1) * slot + slot / 2).toFixed(1);
      const base = (PAD.top + innerH).toFixed(1);
      // Slack's line chart: the line alone; an area chart fills under it.
      if (kind !== 'line') {
        shapes.push(
          `<polygon${attrs({ class: 'wb-chart-area', points: `${first},${base} ${pts.join(' ')} ${last},${base}`, fill: colour, 'fill-opacity': '0.25' })}/>`,
        );
      }
      shapes.push(`<polyline${attrs({ points: pts.join(' '), fill: 'none', stroke: colour, 'stroke-width': '2' })}/>`);
    }
  });
  const step = Math.max(1, Math.ceil(categories.length / 10));
  const labels = categories
    .map((c, i) =>
      i % step === 0
        ? `<text${attrs({ x: (PAD.left + i * slot + slot / 2).toFixed(1), y: H - PAD.bottom + 16, 'text-anchor': 'middle', 'font-size': '10', fill: '#616061' })}>${escapeHtml(c)}</text>`
        : '',
    )
    .join('');
  const axis = `<line${attrs({ x1: PAD.left, y1: PAD.top + innerH, x2: W - PAD.right, y2: PAD.top + innerH, stroke: '#ddd' })}/><text${attrs({ x: 4, y: PAD.top + 10, 'font-size': '10', fill: '#616061' })}>${escapeHtml(max.toLocaleString('en-US'))}</text>`;
  const legend = series
    .map(
      (s, si) =>
        `<span class="wb-chart-key"><span class="wb-chart-swatch wb-chart-swatch-${si % COLOURS.length}"></span>${escapeHtml(s.name)}</span>`,
    )
    .join('');
  return `<svg${attrs({ class: 'wb-chart-svg', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': series.map((s) => s.name).join(', ') })}>${axis}${shapes.join('')}${labels}</svg><div class="wb-chart-legend">${legend}</div>`;
}

export function dataVisualizationHtml(block: JsonObject): string {
  const chart = isObject(block.chart) ? block.chart : {};
  const axis = isObject(chart.axis_config) ? chart.axis_config : {};
  const categories = list(axis.categories).map((c) => String(c));
  const kind = str(chart.type) ?? 'bar';
  return `<div class="wb-chart" data-chart-type="${escapeHtml(kind)}"><div class="wb-chart-title">${escapeHtml(str(block.title) ?? '')}</div>${plot(kind, categories, seriesOf(chart, categories))}</div>`;
}

const cellText = (cell: unknown): string =>
  typeof cell === 'string' || typeof cell === 'number' ? String(cell) : isObject(cell) ? (str(cell.text) ?? '') : '';

export function dataTableHtml(block: JsonObject): string {
  const rows = list(block.rows).map((r) => list(r).map(cellText));
  const [head = [], ...body] = rows;
  return `<table class="wb-table"><thead><tr>${head.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${body
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}
