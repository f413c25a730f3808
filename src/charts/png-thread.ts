/**
 * The chart thread's entry: draws each PNG it is asked for and sends the bytes back
 * (transferred, not copied). Started and ended by render-png.ts.
 */
import { parentPort } from 'node:worker_threads';
import type { ChartSpec } from './chart-spec.js';
import { drawPng, type PngOptions } from './draw-png.js';

export interface PngAsk {
  id: number;
  spec: ChartSpec;
  options: PngOptions;
}
export type PngAnswer = { id: number; png: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (ask: PngAsk) => {
  drawPng(ask.spec, ask.options).then(
    (png) => {
      const bytes = new Uint8Array(png); // its own ArrayBuffer, safe to transfer
      parentPort?.postMessage({ id: ask.id, png: bytes } satisfies PngAnswer, [bytes.buffer]);
    },
    (err: unknown) =>
      parentPort?.postMessage({
        id: ask.id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies PngAnswer),
  );
});
