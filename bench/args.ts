/**
 * Command-line options of `npm run bench`. Every address the bench talks to must be loopback:
 * it drives load, so pointing it at a shared host by mistake must be refused, not run.
 */
import { parseArgs } from 'node:util';

export const PARTS = [
  'all',
  'ack',
  'approval',
  'audit',
  'cluster',
  'batch',
  'batch-run',
  'rss',
  'charts',
  'screening',
  'series',
] as const;
export type Part = (typeof PARTS)[number];

export interface BenchOptions {
  /**
   * Which measurement to run: all, part 1 (ack), part 2 (approval), part 3 (audit export) or
   * part 4 (approval on one Redis beside a loopback Redis Cluster), part 5 (checking a batch file),
   * part 6 (running a batch: rows/s, Redis commands per row, RSS), part 7 (peak RSS beside bare
   * Bolt + BullMQ, each in its own process) or part 8 (charts: App Home build, chart
   * drawing, web and worker RSS).
   */
  part: Part;
  /** Slash commands measured per app (parts 1 and 6). */
  n: number;
  /** Requests in flight at once (parts 1 and 6). */
  concurrency: number;
  /** Unmeasured requests sent to each app first (part 1). */
  warmup: number;
  /** Approvals measured (part 2). */
  approvals: number;
  /** Unmeasured approvals first (part 2). */
  approvalWarmup: number;
  /** Approve clicks in flight at once (part 2); 1 waits for each request to settle. */
  approvalConcurrency: number;
  /**
   * Same-run pairs (Rampart beside its floor) per goal: each goal is judged on the
   * median of the pairs' ratios.
   */
  rounds: number;
  /** Approve clicks watched with MONITOR for the Redis commands per click (part 2; 0: none). */
  traceClicks: number;
  /** Text after `/rate` (part 1); `help` is answered in the ack itself, with no work after it. */
  text: string;
  /** Part 1 against an already running Rampart instead of the in-process one. */
  url: string | undefined;
  secret: string | undefined;
  redisUrl: string;
  json: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function assertLoopback(address: string, what: string): void {
  let host: string;
  try {
    host = new URL(address).hostname;
  } catch {
    throw new Error(`${what} "${address}" is not a URL`);
  }
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new Error(`${what} must be a loopback address (127.0.0.1, localhost or ::1), not ${host}`);
  }
}

function positive(name: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return n;
}

/** `env` gives REDIS_URL when --redis is not given (any port, as the tests). */
export function parseBenchArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      n: { type: 'string' },
      concurrency: { type: 'string' },
      warmup: { type: 'string' },
      approvals: { type: 'string' },
      'approval-warmup': { type: 'string' },
      'approval-concurrency': { type: 'string' },
      rounds: { type: 'string' },
      'trace-clicks': { type: 'string' },
      url: { type: 'string' },
      secret: { type: 'string' },
      redis: { type: 'string' },
      part: { type: 'string', default: 'all' },
      text: { type: 'string', default: '' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const part = PARTS.find((p) => p === values.part);
  if (!part) throw new Error(`--part must be one of ${PARTS.join(', ')}`);
  const options: BenchOptions = {
    part,
    n: positive('n', values.n, 2000),
    concurrency: positive('concurrency', values.concurrency, 50),
    warmup: positive('warmup', values.warmup, 200, 0),
    approvals: positive('approvals', values.approvals, 500),
    approvalWarmup: positive('approval-warmup', values['approval-warmup'], 20, 0),
    approvalConcurrency: positive('approval-concurrency', values['approval-concurrency'], 1),
    rounds: positive('rounds', values.rounds, 3),
    traceClicks: positive('trace-clicks', values['trace-clicks'], 5, 0),
    text: values.text,
    url: values.url,
    secret: values.secret,
    redisUrl: values.redis ?? env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    json: values.json,
  };
  if (options.url !== undefined) {
    assertLoopback(options.url, '--url');
    if (options.secret === undefined) throw new Error('--url needs --secret (the signing secret of that Rampart)');
  }
  assertLoopback(options.redisUrl, '--redis');
  return options;
}
