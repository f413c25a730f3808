/**
 * The wake runner only translates (src/adapters/jobs/wake-runner.ts), against a real Redis: each
 * popped approval id becomes one run of its execution 1 under a run id of its own and the
 * worker's lease; a run that could not start becomes a delayed try; a run that threw is settled,
 * again until the settle holds;
 * an entry that is not an approval id is dropped; a wake still waiting for a slot when the runner
 * stops starts nothing; the lease goes when it stops.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnerLeaseKey } from '../../src/adapters/jobs/queues.js';
import { createSlots } from '../../src/adapters/jobs/slots.js';
import { startWakeRunner } from '../../src/adapters/jobs/wake-runner.js';
import type { JobOutcome, WorkerApp } from '../../src/app/worker-app.js';
import { wakeRunnerOf } from '../../src/domain/approval.js';
import { createLogger } from '../../src/log.js';
import { deleteKeys, eventually, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

const prefix = `test-wake-runner-${randomUUID().slice(0, 8)}`;
const listKey = `${prefix}:exec:wake`;
let redis: Redis;

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await deleteKeys(prefix);
  await redis.quit();
});

interface Seen {
  runs: { executionId: string; runId: string }[];
  later: { executionId: string; delayMs: number }[];
  ended: { executionId: string; runId: string }[];
}

/** A worker app that records what the runner asked of it; `answer` decides each run's result. */
function fakeApp(answer: (executionId: string) => Promise<JobOutcome<unknown>>): { app: WorkerApp; seen: Seen } {
  const seen: Seen = { runs: [], later: [], ended: [] };
  const executions = {
    run: async (executionId: string, runId: string) => {
      seen.runs.push({ executionId, runId });
      return answer(executionId);
    },
    queueTry: async (executionId: string, delayMs: number) => void seen.later.push({ executionId, delayMs }),
    settleEnded: async (executionId: string, runId: string) => {
      seen.ended.push({ executionId, runId });
      // The first settle meets Redis away (a failover): the runner tries again.
      if (seen.ended.length === 1) throw new Error("READONLY You can't write against a read only replica.");
      return true;
    },
  };
  return { app: { executions } as unknown as WorkerApp, seen };
}

const start = (app: WorkerApp, slots = createSlots(4), sink = new LogSink()) =>
  startWakeRunner({
    app,
    log: createLogger({ level: 'debug' }, sink),
    redis,
    prefix,
    listKey,
    leaseMs: 2_000,
    slots,
    recheckMs: 30_000,
  });

describe('the wake runner', () => {
  it('runs each wake once under its own run id and lease; hands back what could not start; settles what threw', async () => {
    const { app, seen } = fakeApp(async (id) => {
      if (id === 'R-2.1') return { status: 'wait', ms: 5_000 };
      if (id === 'R-3.1') return { status: 'recheck' };
      if (id === 'R-4.1') throw new Error('the reply to the final move was lost');
      return { status: 'done', result: 'succeeded' };
    });
    const sink = new LogSink();
    const runner = start(app, createSlots(4), sink);
    try {
      await redis.lpush(listKey, 'R-1', 'R-2', 'R-3', 'R-4', 'not an id');
      await eventually(async () => {
        const settled = seen.ended.length === 2 && seen.later.length === 2;
        const dropped = sink.text.includes('wake list entry is not an approval id');
        return settled && dropped && (await redis.llen(listKey)) === 0 ? true : undefined;
      });
      expect(seen.runs.map((r) => r.executionId)).toEqual(['R-1.1', 'R-2.1', 'R-3.1', 'R-4.1']);
      const runners = new Set(seen.runs.map((r) => wakeRunnerOf(r.runId)));
      expect(runners.size).toBe(1);
      expect(new Set(seen.runs.map((r) => r.runId)).size).toBe(4);
      // Its lease lives while it runs.
      const runner16 = [...runners][0] as string;
      expect(await redis.exists(runnerLeaseKey(prefix, runner16))).toBe(1);
      expect(seen.later).toEqual([
        { executionId: 'R-2.1', delayMs: 5_000 },
        { executionId: 'R-3.1', delayMs: 30_000 },
      ]);
      const failed = { executionId: 'R-4.1', runId: seen.runs[3]?.runId };
      expect(seen.ended).toEqual([failed, failed]);
      expect(sink.text).toContain('could not settle a failed run yet; trying again');
      await runner.close();
      expect(await redis.exists(runnerLeaseKey(prefix, runner16))).toBe(0);
    } finally {
      await runner.close();
    }
  });

  it('a wake waiting for a slot when the runner stops starts nothing; the run in the slot finishes first', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<JobOutcome<unknown>>((resolve) => {
      release = () => resolve({ status: 'done', result: 'succeeded' });
    });
    const { app, seen } = fakeApp(() => held);
    const sink = new LogSink();
    const slots = createSlots(1);
    const runner = start(app, slots, sink);
    await redis.lpush(listKey, 'R-11', 'R-12');
    // The first holds the only slot; the second is popped and waits for it.
    await eventually(async () => (seen.runs.length === 1 && (await redis.llen(listKey)) === 0 ? true : undefined));
    let closed = false;
    // As the worker stops: its slots close first, then the runner.
    slots.close();
    const closing = runner.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(seen.runs.map((r) => r.executionId)).toEqual(['R-11.1']);
    expect(sink.text).toContain('wake left queued: this worker is stopping');
  });
});
