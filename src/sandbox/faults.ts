/**
 * Fault knobs for the sandbox: slow answers, injected 5xx failures, and calls that act and then
 * never answer (the case where a money-moving caller cannot know the outcome).
 */

export type FaultBody = 'json' | 'html' | 'empty';

export interface FailOptions {
  /** HTTP status of the injected failure; 500 unless given. */
  status?: number;
  /** JSON error envelope, an HTML error page (as proxies send), or no body at all. */
  body?: FaultBody;
}

export interface InjectedFailure {
  status: number;
  body: FaultBody;
}

export interface FaultResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** '/transfer', 'transfer' and '/transfer/' name the same path. */
const normalise = (path: string): string => `/${path.trim().replace(/^\/+|\/+$/g, '')}`;

export class SandboxFaults {
  #latencyMs = 0;
  readonly #failures = new Map<string, InjectedFailure[]>();
  readonly #hangs = new Map<string, number>();

  /** Adds `ms` before every answer (0 turns it off). */
  latency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latency must be zero or more milliseconds, not ${ms}`);
    this.#latencyMs = ms;
  }

  /** The next `count` calls to `path` fail with a 5xx before anything is applied. */
  failNext(path: string, count = 1, options: FailOptions = {}): void {
    const failure = { status: options.status ?? 500, body: options.body ?? 'json' };
    const queue = this.#failures.get(normalise(path)) ?? [];
    for (let i = 0; i < count; i++) queue.push(failure);
    this.#failures.set(normalise(path), queue);
  }

  /** The next `count` calls to `path` apply their effect and then never answer (until close()). */
  hangAfterApply(path: string, count = 1): void {
    const key = normalise(path);
    this.#hangs.set(key, (this.#hangs.get(key) ?? 0) + count);
  }

  reset(): void {
    this.#latencyMs = 0;
    this.#failures.clear();
    this.#hangs.clear();
  }

  get latencyMs(): number {
    return this.#latencyMs;
  }

  /** Used by the server: takes one pending injected failure for the path, if any. */
  takeFailure(path: string): InjectedFailure | undefined {
    const queue = this.#failures.get(normalise(path));
    const failure = queue?.shift();
    if (queue?.length === 0) this.#failures.delete(normalise(path));
    return failure;
  }

  /** Used by the server: true when this call to the path must hang after applying. */
  takeHang(path: string): boolean {
    const key = normalise(path);
    const left = this.#hangs.get(key) ?? 0;
    if (left <= 0) return false;
    if (left === 1) this.#hangs.delete(key);
    else this.#hangs.set(key, left - 1);
    return true;
  }
}

export function faultResponse(failure: InjectedFailure, timestamp: string): FaultResponse {
  switch (failure.body) {
    case 'json':
      return {
        status: failure.status,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          success: false,
          status: failure.status,
          message: 'internal error (injected by the sandbox)',
          timestamp,
        }),
      };
    case 'html':
      return {
        status: failure.status,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: `<html><head><title>${failure.status} Error</title></head><body><h1>${failure.status} Error</h1><p>upstream failed</p></body></html>`,
      };
    case 'empty':
      return { status: failure.status, headers: {}, body: '' };
  }
}
