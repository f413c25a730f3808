/**
 * The one end-to-end set-up (one helper instead of a preamble copied into every
 * file): registers beforeAll (start the harness) and afterAll (expectHealthyRun, then close) and
 * returns a handle that reads the running harness.
 *
 * Vitest runs after-hooks in reverse order of registration (`sequence.hooks: 'stack'`), so a
 * file registers what must outlive the harness (a Redis server it points at) before calling
 * useHarness, and what must stop before the checks (a child worker) after it.
 */
import { afterAll, beforeAll } from 'vitest';
import type { RampartOptions } from '../../src/rampart.js';
import { expectHealthyRun, type Harness, startHarness } from './harness.js';

export interface HarnessSetup {
  /** Rampart's options: worker timings, an injected clock, decorators. */
  rampart?: RampartOptions;
  /** Slack reaches Rampart over the fake's Socket Mode instead of signed HTTP. */
  socketMode?: boolean;
  /** Whether the end-of-file checks apply (default true); false where Slack sends nothing. */
  healthy?: boolean;
}

type Env = Record<string, string>;

/**
 * Starts one harness for the enclosing file or describe block. `env` may be a function when it
 * depends on something an earlier beforeAll started (a private Redis's URL).
 */
export function useHarness(name: string, env: Env | (() => Env) = {}, setup: HarnessSetup = {}): Harness {
  let running: Harness | undefined;
  beforeAll(async () => {
    running = await startHarness(name, typeof env === 'function' ? env() : env, setup.rampart ?? {}, {
      socketMode: setup.socketMode ?? false,
    });
  });
  afterAll(async () => {
    const h = running;
    running = undefined;
    if (!h) return; // the start failed and said why
    try {
      if (setup.healthy ?? true) expectHealthyRun(h);
    } finally {
      await h.close();
    }
  });
  const now = (): Harness => {
    if (!running) throw new Error(`The ${name} harness is not running: use it inside a test or a later hook.`);
    return running;
  };
  return {
    get fake() {
      return now().fake;
    },
    get sandbox() {
      return now().sandbox;
    },
    get rampart() {
      return now().rampart;
    },
    get driver() {
      return now().driver;
    },
    get logs() {
      return now().logs;
    },
    get prefix() {
      return now().prefix;
    },
    startAnother: (env, options) => now().startAnother(env, options),
    close: () => now().close(),
  };
}

/**
 * Anything else a file starts once and stops at its end (a loopback server, a browser, the API):
 * started in a beforeAll, stopped in an afterAll, and read through the returned handle inside
 * tests and later hooks. The same ordering rule applies: call it before useHarness for what the
 * harness needs (a URL in its env), after it for what uses the running harness.
 */
export function useStarted<T extends object>(
  what: string,
  start: () => Promise<T>,
  stop: (running: T) => unknown,
  startTimeoutMs?: number,
): T {
  let running: T | undefined;
  beforeAll(async () => {
    running = await start();
  }, startTimeoutMs);
  afterAll(async () => {
    const r = running;
    running = undefined;
    if (r) await stop(r);
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (!running) throw new Error(`The ${what} is not running: use it inside a test or a later hook.`);
      const value: unknown = Reflect.get(running, key);
      return typeof value === 'function' ? value.bind(running) : value;
    },
  });
}
