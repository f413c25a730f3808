/**
 * The approve path's start: at a payment's quorum the vote script pushes its approval's id on the
 * wake list (store/lua/vote.lua), and this runner's blocking pop hands execution 1 straight to
 * the worker app, with no BullMQ job in between. BullMQ's pick-up (its moveToActive round trip
 * and its job handling) was most of the time from the click to the service call.
 *
 * Nothing here decides anything. The start script still runs each execution at most once (DESIGN
 * invariant 3), so a wake that finds its execution started, finished or not yet due moves nothing.
 * A wake that no runner takes, or that this one popped and then lost as it stopped, is made good
 * by the voter's look a second after the quorum (app/decide.ts) or by the reconciler.
 *
 * A run has no BullMQ lock to say it is still going, so this process keeps a lease
 * (queues.ts runnerLeaseKey), renewed while it runs and removed when it has stopped: while the
 * lease lives, the reconciler and the start script leave this process's runs alone, as they
 * leave a locked job; when it expires, a run it held becomes `unknown` (a killed worker).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, Redis } from 'ioredis';
import type { JobOutcome, WorkerApp } from '../../app/worker-app.js';
import { APPROVAL_ID, executionId, wakeRunId } from '../../domain/approval.js';
import type { Logger } from '../../log.js';
import type { RedisClient } from '../../redis-client.js';
import { runnerLeaseKey } from './queues.js';
import { type Slots, STOPPING } from './slots.js';

export interface WakeRunnerDeps {
  app: WorkerApp;
  log: Logger;
  /** The patient connection; the runner blocks on a duplicate of it. */
  redis: RedisClient;
  prefix: string;
  /** The wake list's key (store/store-keys.ts StoreKeys.wake). */
  listKey: string;
  /** How long the lease outlives this process's last renewal (BullMQ's lock duration). */
  leaseMs: number;
  slots: Slots;
  /** How long a run held by the freeze waits before its job looks again. */
  recheckMs: number;
}

export interface WakeRunner {
  /**
   * Stops popping, lets every run finish, then gives the lease up. The slots' owner closes them
   * first (worker.ts), so a wake still waiting for one starts nothing.
   */
  close(): Promise<void>;
}

/** After a failed pop (Redis away): how long before popping again. */
const POP_RETRY_MS = 1_000;
/** A failed run's settle is tried again at most this far apart. */
const SETTLE_RETRY_MAX_MS = 10_000;

const duplicate = (redis: RedisClient): RedisClient =>
  redis.isCluster ? (redis as Cluster).duplicate() : (redis as Redis).duplicate();

export function startWakeRunner(deps: WakeRunnerDeps): WakeRunner {
  const { app, log, slots } = deps;
  const runner = randomBytes(8).toString('hex');
  const lease = runnerLeaseKey(deps.prefix, runner);
  const blocking = duplicate(deps.redis);
  blocking.on('error', (err) => log.debug({ err }, 'wake runner connection error'));
  const running = new Set<Promise<void>>();
  let stopped = false;
  let n = 0;

  const renew = () => deps.redis.set(lease, '1', 'PX', deps.leaseMs);
  const renewal = setInterval(
    () => {
      renew().catch((err: unknown) => log.warn({ err }, 'could not renew the wake runner lease'));
    },
    Math.max(1, Math.floor(deps.leaseMs / 3)),
  );
  renewal.unref();

  /**
   * A run that threw after its start is settled here: while this process lives its lease says the
   * run goes on, so nothing else would. Tried again until it holds; once the runner stops, the
   * lease goes with it and the reconciler of any worker settles it.
   */
  const settle = async (id: string, runId: string) => {
    for (let wait = POP_RETRY_MS; ; wait = Math.min(wait * 2, SETTLE_RETRY_MAX_MS)) {
      try {
        await app.executions.settleEnded(id, runId);
        return;
      } catch (err) {
        if (stopped) {
          log.error(
            { err, executionId: id },
            'could not settle a failed run; the reconciler will once this worker stops',
          );
          return;
        }
        log.warn({ err, executionId: id }, 'could not settle a failed run yet; trying again');
        await sleep(wait);
      }
    }
  };

  const runOne = async (approvalId: string) => {
    const id = executionId(approvalId, 1);
    n += 1;
    const runId = wakeRunId(id, runner, n);
    let r: JobOutcome<unknown>;
    try {
      r = await app.executions.run(id, runId);
    } catch (err) {
      log.error({ err, executionId: id }, 'a run from the wake list failed; settling it');
      return settle(id, runId);
    }
    if (r.status === 'done') return;
    // Not started (its runAt, the freeze, a busy wallet): its try waits as a job. A failure here
    // leaves it queued for the quorum's look or the reconciler.
    await app.executions
      .queueTry(id, r.status === 'wait' ? r.ms : deps.recheckMs)
      .catch((err: unknown) => log.warn({ err, executionId: id }, 'could not queue a try; the reconciler will'));
  };

  /**
   * Waits for a slot, then leaves the run going: the next pop comes only when a slot was free. A
   * wake still waiting when the runner stops starts nothing (slots.ts): it is left queued, for
   * the quorum's look or the reconciler, rather than starting a call in a process on its way out.
   */
  const dispatch = (approvalId: string) =>
    new Promise<void>((taken) => {
      const run: Promise<void> = slots
        .run(async () => {
          taken();
          await runOne(approvalId);
        })
        .then((r) => {
          if (r !== STOPPING) return;
          taken();
          log.info({ approvalId }, 'wake left queued: this worker is stopping');
        })
        .finally(() => running.delete(run));
      running.add(run);
    });

  const loop = async () => {
    // No run before the lease exists: another process's reconciler would take it for a dead one.
    while (!stopped) {
      try {
        await renew();
        break;
      } catch (err) {
        log.warn({ err }, 'could not take the wake runner lease; trying again');
        await sleep(POP_RETRY_MS);
      }
    }
    while (!stopped) {
      let popped: [string, string] | null;
      try {
        popped = await blocking.brpop(deps.listKey, 0);
      } catch (err) {
        if (stopped) break;
        log.warn({ err }, 'wake list not read; trying again');
        await sleep(POP_RETRY_MS);
        continue;
      }
      const approvalId = popped?.[1];
      if (approvalId === undefined) continue;
      if (!APPROVAL_ID.test(approvalId)) {
        log.warn({ value: approvalId.slice(0, 40) }, 'wake list entry is not an approval id; dropped');
        continue;
      }
      await dispatch(approvalId);
    }
  };
  const looping = loop();

  return {
    async close() {
      stopped = true;
      // The pending pop is given up with its connection (a wake lost that instant is made good).
      blocking.disconnect();
      await looping;
      while (running.size > 0) await Promise.allSettled([...running]);
      clearInterval(renewal);
      await deps.redis.del(lease).catch((err: unknown) => log.debug({ err }, 'wake runner lease not removed'));
    },
  };
}
