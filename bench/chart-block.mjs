// Chart bench: loaded with --import, makes the chart libraries impossible to load, so a web
// process started this way is "the same build with charts never loaded" (bench/charts.ts).
import { register } from 'node:module';

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'echarts' || specifier.startsWith('echarts/') || specifier.startsWith('@resvg/'))
    throw new Error('chart library blocked by bench/chart-block.mjs: ' + specifier);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
