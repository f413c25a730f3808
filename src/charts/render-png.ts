/**
 * Charts as PNGs, drawn off the main thread: resvg's native memory stayed in a worker
 * process after drawing (+157 MiB after 100 charts, the goal is 40), so drawing happens in a
 * `node:worker_threads` thread started on the first chart and ended after `idleMs` without one
 * (30 s by default): ending the thread returns its heap and the libraries' memory. The chart
 * libraries are loaded in that thread only, so a process that never draws keeps today's memory.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ChartSpec } from './chart-spec.js';
import type { PngOptions } from './draw-png.js';
import type { PngAnswer, PngAsk } from './png-thread.js';

export type { PngOptions } from './draw-png.js';

const THREAD = new URL(`./png-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Compiled (dist/): the .js entry as it is. From source (tsx, vitest): through tsx's loader. */
function startThread(): Worker {
  if (!THREAD.pathname.endsWith('.ts')) return new Worker(THREAD);
  // require.resolve finds the CommonJS entry; its ESM twin sits beside it.
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const code = `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(THREAD.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(code, { eval: true });
}

interface Waiting {
  resolve: (png: Buffer) => void;
  reject: (err: Error) => void;
}

export class PngRenderer {
  private thread: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs = 30_000) {}

  /** Whether the chart thread is running (the bench and tests watch it end). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  render(spec: ChartSpec, options: PngOptions = {}): Promise<Buffer> {
    clearTimeout(this.idle);
    const thread = this.ensure();
    thread.ref(); // an answer is awaited: keep the process alive for it
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      thread.postMessage({ id, spec, options } satisfies PngAsk);
    });
  }

  /** Ends the thread now (shutdown, tests); a later chart starts a new one. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const thread = this.thread;
    this.thread = undefined;
    this.fail(new Error('the chart thread was closed'));
    await thread?.terminate();
  }

  private ensure(): Worker {
    if (this.thread) return this.thread;
    const thread = startThread();
    thread.on('message', (answer: PngAnswer) => this.answer(answer));
    thread.on('error', (err) => this.lost(thread, err));
    thread.on('exit', (code) => this.lost(thread, new Error(`the chart thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }

  private answer(answer: PngAnswer): void {
    const waiting = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if ('error' in answer) waiting?.reject(new Error(`drawing a chart failed: ${answer.error}`));
    else waiting?.resolve(Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength));
    if (this.waiting.size === 0) this.rest();
  }

  /** Nothing awaited: let the process exit, and end the thread after idleMs without a chart. */
  private rest(): void {
    this.thread?.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.close(), this.idleMs);
    this.idle.unref();
  }

  private lost(thread: Worker, err: Error): void {
    if (this.thread !== thread) return;
    this.thread = undefined;
    this.fail(err);
  }

  private fail(err: Error): void {
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}

/** The process's one chart thread, idle-ended after 30 s. */
export const pngRenderer = new PngRenderer();

export function renderPng(spec: ChartSpec, options: PngOptions = {}): Promise<Buffer> {
  return pngRenderer.render(spec, options);
}
