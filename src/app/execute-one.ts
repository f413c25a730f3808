/**
 * Runs one execution of an approval against the service, at most once (DESIGN invariant 3,
 * ): queued → executing by compare-and-set before the call (the only place an
 * execution may start); the sealed call, never anything else; tried again only when it provably
 * never left (a new try, a fresh job id); anything ambiguous ends in `unknown`.
 */
import { type ApprovalShape, isSingleExecution, isWakeJob, matchesSeal, parseExecutionId } from '../domain/approval.js';
import type { RequestOutcome, SealedRequest } from '../domain/request.js';
import { velocitySubject } from '../domain/velocity.js';
import type { Logger } from '../log.js';
import { failureFacts } from '../service/classify.js';
import type { ServiceClient } from '../service/client.js';
import type { ControlStore } from '../store/controls.js';
import type { BatchFinish } from '../store/executions.js';
import type { Registry } from '../store/registry.js';
import type { RequestStore } from '../store/requests.js';
import { checkFunding } from './batch-funding.js';
import { afterRow, type BatchRunConfig, rowFinish } from './batch-run.js';
import { callService, recordSuccess, registerStated } from './execution-effects.js';
import type { Clock, JobQueue } from './ports.js';
import { unknownFinishKeys } from './unknown-keys.js';

export interface ExecuteOneDeps {
  service: ServiceClient;
  store: RequestStore;
  registry: Registry;
  jobs: JobQueue;
  log: Logger;
  now: Clock;
  workerName: string;
  /** A failed execution gives its velocity headroom back. */
  controls?: ControlStore;
  /**
   * True once the start is on a replica (WAIT 1), or when
   * Redis has none. Without it the execution goes back to queued, never sent.
   */
  durable?: () => Promise<boolean>;
  /** BATCH_PAUSE_AFTER_FAILURES and BATCH_HOLD_LIMIT (defaults: 10, none). */
  batch?: BatchRunConfig;
  /**
   * Test seam: runs between the job's pick-up and the
   * compare-and-set, so a test can stop, pause or freeze there. Never set in production.
   */
  beforeStart?: (executionId: string) => Promise<void>;
}

export interface ExecuteOneOptions {
  /** The BullMQ job running this try ('' outside a queue). */
  jobId?: string;
  /** Tries an execution gets when its call provably never left (default EXECUTE_TRIES). */
  maxTries?: number;
  /**
   * After a passed funding check, return 'funded' instead of starting, so the caller
   * asks BATCH_RATE's limiter again (the check's read must not shorten the gap between calls).
   */
  returnWhenFunded?: boolean;
  /** Told the ms left when the start refused 'not-yet' (before the approval's runAt). */
  onNotYet?: (waitMs: number) => void;
}

// 'frozen': the freeze refused the start; nothing changed, the job waits. 'wait'
//: a batch's funding could not be checked (balance unreadable); the job waits too.
// 'not-yet': before the approval's runAt (a cancel window or a set time); nothing changed, the
// job waits until then without using a try.
export type ExecuteResult =
  | 'succeeded'
  | 'failed'
  | 'unknown'
  | 'retry'
  | 'skipped'
  | 'frozen'
  | 'wait'
  | 'funded'
  | 'not-yet';

/** Only a call that provably never left is tried again: this many tries at most. */
export const EXECUTE_TRIES = 3;
/** A single request's call slower than this shows "executing" on its card until it answers. */
export const EXECUTING_CARD_AFTER_MS = 500;
const retryDelayMs = (tries: number) => 2_000 * 2 ** (tries - 1);

/** A single request's own execution gets its outcome notices; a batch's rows, its card. */
const notifyKind = (shape: ApprovalShape | undefined, executionId: string, to: string) =>
  isSingleExecution(shape, executionId) ? (to === 'unknown' || to === 'not-sent' ? to : 'outcome') : 'card';

/** Marks an `executing` execution `unknown` (a crash or stall left it there) and says so loudly. */
export async function markUnknown(
  deps: Pick<ExecuteOneDeps, 'store' | 'jobs' | 'log' | 'controls'>,
  executionId: string,
  why: string,
): Promise<boolean> {
  const how = await unknownFinishKeys(deps, executionId);
  const r = await deps.store.executions.finish(executionId, '', 'unknown', { message: why }, why, how);
  if (r.ok) {
    deps.log.error({ executionId, why }, 'execution outcome unknown');
    const approvalId = parseExecutionId(executionId)?.approvalId ?? executionId;
    await deps.jobs.notify({ requestId: approvalId, kind: notifyKind(r.shape, executionId, 'unknown') });
  }
  return r.ok;
}

export async function executeOne(
  deps: ExecuteOneDeps,
  executionId: string,
  options: ExecuteOneOptions = {},
): Promise<ExecuteResult> {
  const { store, log, jobs } = deps;
  const jobId = options.jobId ?? '';
  const approvalId = parseExecutionId(executionId)?.approvalId ?? executionId;
  // One compare-and-set that also returns what to run: no separate read.
  // BATCH_HOLD_LIMIT: the start script applies it to a batch's rows only.
  const hold = deps.batch?.holdLimitMs;
  await deps.beforeStart?.(executionId);
  let started = await store.executions.start(executionId, deps.workerName, jobId, hold);
  // The batch just took its wallet's turn (or was resumed): check its funding first.
  if (started.token === undefined && started.approval === 'funding') {
    const funding = await checkFunding(deps, approvalId);
    if (funding === 'unchecked') return 'wait';
    if (funding === 'paused') await jobs.notify({ requestId: approvalId, kind: 'card' });
    else if (options.returnWhenFunded) return 'funded';
    else started = await store.executions.start(executionId, deps.workerName, jobId, hold);
  }
  if (started.token === undefined) {
    if (started.held) return 'frozen';
    if (started.approval === 'not-yet') {
      options.onNotYet?.(started.waitMs ?? 1);
      return 'not-yet';
    }
    // A click's wake-up is expected to find nothing to start (before the quorum, on a
    // decided card, on a request that is gone); any other job that may not start is worth a look.
    const woken = isWakeJob(jobId);
    if (started.from === undefined) {
      log[woken ? 'debug' : 'error']({ executionId }, 'execute: execution missing; nothing called');
      return 'skipped';
    }
    if (started.from === 'executing') {
      // Another job that is still running holds it: not ours to judge.
      if (started.job && started.job !== jobId && (await jobs.isRunning(started.job))) return 'skipped';
      // Someone began this call and never finished: it may have reached the service.
      await markUnknown(
        deps,
        executionId,
        'a worker stopped while this request was executing; it may or may not have reached the service',
      );
      return 'unknown';
    }
    log[woken ? 'debug' : 'warn'](
      { executionId, state: started.from, approval: started.approval },
      'execute: may not start; nothing called',
    );
    return 'skipped';
  }
  const { token, frozen, tries, shape } = started;
  const batch = shape === 'batch';
  // The card says "executing" once the call is on its way: its refresh never stands between the
  // compare-and-set and the call, nor shares the time before the call's first byte.
  // A batch's card changes with its state, not per row — only the
  // row that began the batch refreshes it here (progress goes to the thread at the row's end).
  const refreshCard = () => {
    if (batch && !started.began) return;
    void jobs
      .notify({ requestId: approvalId, kind: 'card' })
      .catch((err: unknown) => log.warn({ err, executionId }, 'could not queue a card refresh'));
  };

  // A batch row's give-back, failure run and pause happen inside its final move.
  // A single request's final move gives its velocity headroom back on `failed` and re-stamps it
  // with its start time on succeeded/unknown, in the same script.
  // Worked out by the one move that ends this try, not before the call (nothing but the call).
  const rowOf = (): { batch?: BatchFinish; release?: { ledger: string; amounts: string } } => {
    if (batch) return { batch: rowFinish(deps, frozen) };
    const subject = velocitySubject(frozen);
    return subject && deps.controls
      ? { release: { ledger: deps.controls.ledgerKey(subject), amounts: deps.controls.amountsKey(subject) } }
      : {};
  };
  // The approval as the start read it: the final move masks it without reading it again; a
  // batch's row reads its next row in the same script.
  const n = parseExecutionId(executionId)?.n;
  const howOf = () => ({
    ...rowOf(),
    approval: started.approval,
    ...(batch && n !== undefined ? { next: `${approvalId}.${n + 1}` } : {}),
  });
  /** `also`: what a recorded move does besides, side by side with its notices. */
  const finish = async (
    to: 'succeeded' | 'failed' | 'unknown',
    result: RequestOutcome,
    detail?: string,
    also?: () => Promise<void>,
  ) => {
    const r = await store.executions.finish(executionId, token, to, result, detail, howOf());
    if (!r.ok) log.error({ executionId, to, state: r.from }, 'execute: could not record the outcome');
    await Promise.all([
      batch && r.ok
        ? afterRow(deps, approvalId, to, r)
        : jobs.notify({ requestId: approvalId, kind: notifyKind(shape, executionId, to) }),
      r.ok ? also?.() : undefined,
    ]);
    return r.ok;
  };
  const notSent = async (outcome: RequestOutcome, detail: string): Promise<ExecuteResult> => {
    if (tries >= (options.maxTries ?? EXECUTE_TRIES)) {
      await finish('failed', outcome, 'never sent');
      return 'failed';
    }
    // No byte of the request left: back to queued, and a new try with its own job id.
    await store.executions.finish(executionId, token, 'queued', outcome, detail, rowOf());
    await jobs.enqueueTry(executionId, tries + 1, retryDelayMs(tries));
    return 'retry';
  };

  // The start must survive a failover before anything is sent.
  if (deps.durable && !(await deps.durable())) {
    log.warn({ executionId }, 'execute: no Redis replica acknowledged the start; not sent');
    // A batch's row goes back to queued (never sent) AND its batch pauses.
    if (batch) {
      await store.executions.finish(
        executionId,
        token,
        'queued',
        { message: 'no Redis replica acknowledged the start in time, so nothing was sent' },
        'not sent: Redis replica did not acknowledge',
        {
          batch: {
            ...rowOf().batch,
            pauseWhy:
              'no Redis replica acknowledged a row’s start, so it was not sent; check Redis, then resume or stop',
          },
        },
      );
      await jobs.notify({ requestId: approvalId, kind: 'card' });
      return 'skipped';
    }
    const r = await notSent(
      { message: 'no Redis replica acknowledged the start in time, so nothing was sent' },
      'not sent: Redis replica did not acknowledge; will retry',
    );
    // The thread says so (a batch's card shows it): back to queued, nothing sent.
    if (r === 'retry') await jobs.notify({ requestId: approvalId, kind: notifyKind(shape, executionId, 'not-sent') });
    return r;
  }
  // Invariant 2: what runs is byte-for-byte what was approved.
  if (!matchesSeal(frozen.call, started.sealHash)) {
    await finish('failed', { message: 'integrity check failed: the stored call does not match its hash' });
    return 'failed';
  }
  if (refusesEntireBalance(frozen)) {
    await finish(
      'failed',
      {
        message:
          'it asked for the entire balance without an exact amount, which could move more than the approvers saw; nothing was sent. Request it again with an exact amount',
      },
      'refused: amount not fixed',
    );
    return 'failed';
  }
  if (frozen.call.kind === 'register-beneficiary') {
    refreshCard();
    const { ok, ...result } = await registerStated(deps, frozen, started.decidedBy);
    await finish(ok ? 'succeeded' : 'failed', result, result.message);
    return ok ? 'succeeded' : 'failed';
  }

  let outcome: RequestOutcome;
  // A single request's card says "executing" only while a call is slow to answer: a quick call's
  // outcome refreshes the card moments later anyway, so an earlier refresh would be a flicker, one
  // more chat.update against Slack's per-channel limit, and a job sharing the time before the
  // call's first byte. A batch's first row shows the batch running at once.
  try {
    const call = callService(deps.service, frozen.call);
    // Undici writes on a kept-alive connection within the call's own ticks: refresh after them.
    const executingCard = batch ? undefined : setTimeout(refreshCard, EXECUTING_CARD_AFTER_MS);
    if (batch) setImmediate(refreshCard);
    // Cleared the moment the call settles, before its outcome is recorded.
    outcome = await call.finally(() => clearTimeout(executingCard));
  } catch (err) {
    // Stored as data; each edge writes its own sentence from it.
    const failure = failureFacts(err);
    switch (failure.class) {
      case 'never-sent':
        log.warn({ executionId, err }, 'execute: the call was never sent');
        return notSent({ failure }, 'not sent; will retry');
      case 'refused':
        log.warn({ executionId, err }, 'execute: the call was refused; nothing moved');
        await finish('failed', { failure }, 'refused');
        return 'failed';
      case 'ambiguous':
        // 5xx, time-out, reset, unreadable answer: it may have happened, so never again.
        log.error({ executionId, err }, 'execute: outcome unknown');
        await finish('unknown', { failure }, 'no clear answer from the service');
        return 'unknown';
    }
  }
  await finish('succeeded', outcome, undefined, () =>
    recordSuccess(
      { registry: deps.registry, now: deps.now, addPayee: (c, r) => store.addPayee(c, r) },
      frozen,
      outcome,
      started.decidedBy,
    ),
  );
  return 'succeeded';
}

/**
 * A record sealed before Rampart stopped sending -1 would move whatever the wallet
 * holds now, possibly more than the approvers saw. Refused; nothing is sent.
 */
const refusesEntireBalance = (frozen: SealedRequest): boolean =>
  (frozen.call.kind === 'transfer' || frozen.call.kind === 'offramp') && frozen.call.body.amount === -1;
