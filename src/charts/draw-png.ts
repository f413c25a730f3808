/**
 * A chart as a PNG, drawn without a browser: ECharts' server-side SVG rendering,
 * rasterised by resvg with the bundled DejaVu Sans (assets/fonts, its licence beside it) so text
 * renders the same on any machine. Runs inside the chart thread (png-thread.ts, started by
 * render-png.ts), so the libraries' memory leaves with the thread; both are loaded on the first
 * drawing only.
 */
import { fileURLToPath } from 'node:url';
import type { ChartSpec } from './chart-spec.js';

/** src/charts and dist/charts both sit two levels below the repository root. */
const FONT = fileURLToPath(new URL('../../assets/fonts/DejaVuSans.ttf', import.meta.url));
const PALETTE = ['#1264A3', '#2EB67D', '#ECB22E', '#E01E5A', '#36C5F0', '#4A154B'];

export interface PngOptions {
  width?: number;
  height?: number;
}

type Libraries = [typeof import('echarts'), typeof import('@resvg/resvg-js')];
let loading: Promise<Libraries> | undefined;
const libraries = (): Promise<Libraries> => {
  loading ??= Promise.all([import('echarts'), import('@resvg/resvg-js')]);
  return loading;
};

function option(spec: ChartSpec) {
  return {
    animation: false,
    backgroundColor: '#ffffff',
    color: PALETTE,
    textStyle: { fontFamily: 'DejaVu Sans' },
    title: { text: spec.title, left: 12, top: 8, textStyle: { fontSize: 15 } },
    legend: { bottom: 6, left: 'center' },
    grid: { left: 64, right: 24, top: 56, bottom: 64 },
    xAxis: { type: 'category', data: [...spec.categories], boundaryGap: spec.kind === 'bar' },
    yAxis: { type: 'value', ...(spec.yLabel ? { name: spec.yLabel } : {}) },
    series: spec.series.map((s) =>
      s.asLine
        ? { name: s.name, type: 'line', data: [...s.values], symbol: 'none', lineStyle: { type: 'dashed', width: 2 } }
        : spec.kind === 'bar'
          ? { name: s.name, type: 'bar', data: [...s.values] }
          : { name: s.name, type: 'line', data: [...s.values], areaStyle: { opacity: 0.25 }, symbol: 'none' },
    ),
  };
}

/** The SVG ECharts draws for the spec (also what the PNG is made from). */
export async function renderSvg(spec: ChartSpec, { width = 720, height = 360 }: PngOptions = {}): Promise<string> {
  const [echarts] = await libraries();
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option(spec));
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

export async function drawPng(spec: ChartSpec, options: PngOptions = {}): Promise<Buffer> {
  const svg = await renderSvg(spec, options);
  const [, { Resvg }] = await libraries();
  const image = new Resvg(svg, {
    font: { fontFiles: [FONT], loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
    background: '#ffffff',
  }).render();
  return image.asPng();
}
