/**
 * approve / deny / cancel: the decisions on a pending request, authorised on the server at every
 * click (DESIGN invariant 1). Each returns a discriminated outcome; the Slack edge phrases it.
 * Buttons carry only the request id, never what to execute (invariant 2).
 */
import { executionId, type ViewState } from '../domain/approval.js';
import type { PasskeyProof } from '../domain/step-up.js';
import type { FreezeState } from '../store/controls.js';
import { type RedisFailure, redisFailure, whenRedisAnswers } from '../store/redis-errors.js';
import type { VoteResult } from '../store/requests.js';
import type { AppDeps, ApproverDirectory } from './deps.js';
import { scheduleFirstRun } from './series/schedule-first.js';
import { approvalControls, controlsWithSubject, recordHeld } from './velocity.js';

/** What a late click is told: who decided, when, and what the request is now. */
export interface Decided {
  requestId: string;
  state: ViewState | undefined;
  decidedBy: string | undefined;
  decidedAt: number | undefined;
  expiresAt: number;
}

export type Authorisation = { kind: 'not-approver' } | { kind: 'approver-check-failed'; error: unknown };

export type ApproveOutcome =
  | Authorisation
  | { kind: 'missing' }
  | { kind: 'self'; requestId: string }
  | { kind: 'duplicate'; requestId: string; remaining: number }
  | { kind: 'late'; decided: Decided }
  | { kind: 'voted'; requestId: string }
  | { kind: 'approved'; requestId: string }
  // Refused while frozen; not counted because quorum would break a velocity limit.
  | { kind: 'frozen'; requestId: string; freeze: FreezeState | undefined }
  | { kind: 'over_limit'; requestId: string; message: string }
  /** Not counted; this request needs the approver's passkey (the edge offers the page). */
  | { kind: 'step-up'; requestId: string }
  /** Not counted: it carries a lookalike and the approver did not confirm the card's warnings. */
  | { kind: 'unconfirmed'; requestId: string }
  /** Redis did not take the vote: "unreachable" means it did not count. */
  | { kind: 'unavailable'; failure: RedisFailure };

/**
 * This long after the quorum the web side looks once: an execution that has not
 * started (held by a freeze, a backlog, no worker taking its wake)
 * gets a card that says "approved" and a try of its own. Nothing runs beside the pick-up.
 */
export const CARD_AFTER_QUORUM_MS = 1_000;

type DecideDeps = Pick<AppDeps, 'store' | 'queues' | 'approvers' | 'log' | 'now'>;
type ApproveDeps = DecideDeps & Pick<AppDeps, 'controls' | 'config'>;

/**
 * What follows a decision that is already recorded (the job, a card refresh, a reply) must not
 * turn it into "nothing was changed" when Redis blinks: it is tried again in the
 * background, without holding up the answer, until Redis answers.
 */
async function afterDecision(
  deps: Pick<AppDeps, 'log'>,
  requestId: string,
  what: string,
  step: () => Promise<void>,
): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (!redisFailure(err)) throw err;
    deps.log.warn({ err, requestId }, `${what}: Redis did not take it; trying again in the background`);
    whenRedisAnswers(step, 60).catch((e: unknown) =>
      deps.log.error({ err: e, requestId }, `${what} given up; the reconciler settles approved requests`),
    );
  }
}

/** Approvers only; a failed user-group lookup is its own answer, not "you are not an approver". */
export const authorise = (deps: Pick<AppDeps, 'approvers' | 'log'>, user: string): Promise<Authorisation | undefined> =>
  memberOf(deps.approvers, deps.log, user);

/** Whether `user` is in a directory of users and user groups; a failed group lookup is said as such. */
export async function memberOf(
  directory: ApproverDirectory,
  log: AppDeps['log'],
  user: string,
): Promise<Authorisation | undefined> {
  try {
    return (await directory.isApprover(user)) ? undefined : { kind: 'not-approver' };
  } catch (error) {
    log.warn({ err: error }, 'could not check membership of a user group');
    return { kind: 'approver-check-failed', error };
  }
}

/**
 * `passkey` only from the step-up page, after the assertion was verified (app/step-up.ts).
 * `warningsChecked` when the approver confirmed the card's warnings (the history says so).
 */
export async function approve(
  deps: ApproveDeps,
  requestId: string,
  user: string,
  passkey?: PasskeyProof,
  warningsChecked = false,
): Promise<ApproveOutcome> {
  const refused = await authorise(deps, user);
  if (refused) return refused;
  // One script: the vote, its history, quorum, the freeze and velocity limits (on the
  // subject stored with the request: no read before it), the facts the answer needs and, at the
  // quorum, the wake that has a worker start execution 1 at once (store/lua/vote.lua).
  let v: VoteResult;
  try {
    v = await deps.store.castVote(requestId, user, approvalControls(deps), passkey, warningsChecked);
    if (v.outcome === 'needs_subject') {
      // A record stored before its subject was: the vote did not count; read it and vote again.
      const controls = await controlsWithSubject(deps, requestId);
      v = await deps.store.castVote(requestId, user, controls, passkey, warningsChecked);
    }
  } catch (err) {
    const failure = redisFailure(err);
    if (!failure) throw err;
    deps.log.warn({ err, requestId }, 'approval not taken: Redis is unreachable or did not answer');
    return { kind: 'unavailable', failure };
  }
  try {
    return await afterVote(deps, requestId, user, v);
  } catch (err) {
    if (!redisFailure(err)) throw err;
    // The vote stands; the reconciler queues an approved request that has no job (app/executions/reconcile.ts).
    deps.log.warn({ err, requestId }, 'approval recorded; queueing deferred until Redis answers');
    return v.outcome === 'approved' ? { kind: 'approved', requestId } : { kind: 'voted', requestId };
  }
}

async function afterVote(deps: ApproveDeps, requestId: string, user: string, v: VoteResult): Promise<ApproveOutcome> {
  switch (v.outcome) {
    case 'frozen':
      return { kind: 'frozen', requestId, freeze: await deps.controls.freeze() };
    case 'over_limit': {
      const message = await recordHeld(deps, requestId, user, v);
      await afterDecision(deps, requestId, 'card refresh', () => deps.queues.notify({ requestId, kind: 'card' }));
      return { kind: 'over_limit', requestId, message };
    }
    case 'missing':
      return { kind: 'missing' };
    case 'needs_subject':
      // Only a vote without a subject passed can answer this; approve passes one the second time.
      throw new Error(`the vote on ${requestId} asked for its velocity subject twice`);
    case 'step_up':
      return { kind: 'step-up', requestId };
    case 'unconfirmed':
      return { kind: 'unconfirmed', requestId };
    case 'self':
      return { kind: 'self', requestId };
    case 'duplicate':
      return { kind: 'duplicate', requestId, remaining: Math.max(0, v.required - v.votes) };
    case 'not_pending':
    case 'expired':
      return {
        kind: 'late',
        decided: { requestId, state: v.state, decidedBy: v.decidedBy, decidedAt: v.decidedAt, expiresAt: v.expiresAt },
      };
    case 'voted':
      deps.log.info({ requestId, by: user }, 'approval recorded');
      await afterDecision(deps, requestId, 'card refresh', () => deps.queues.notify({ requestId, kind: 'card' }));
      return { kind: 'voted', requestId };
    case 'approved':
      // A series went live (vote.lua): it has no execution; its first run's job takes its place.
      if ((v.state as string) === 'live') {
        await afterDecision(deps, requestId, 'scheduling the first run', () => scheduleFirstRun(deps, requestId));
        // Its card says it is live (no execution will redraw it, as a payment's does).
        await afterDecision(deps, requestId, 'card refresh', () => deps.queues.notify({ requestId, kind: 'card' }));
        deps.log.info({ requestId, by: user }, 'series live; first run scheduled');
        return { kind: 'approved', requestId };
      }
      // The execution is what the approver waits for: the vote's wake has a worker start it
      // now, with nothing queued here before it.
      deps.log.info({ requestId, by: user }, 'request approved; queueing');
      lookAfterQuorum(deps, requestId);
      return { kind: 'approved', requestId };
  }
}

/**
 * A second after the quorum: an execution still queued gets a card that says "approved" and a try
 * of its own (a no-op while that try's job waits; the start script runs at most one). This covers
 * a wake no worker took (no worker of this version runs, or its runner stopped with the wake
 * popped) in a second, not at the reconciler's next pass. An in-process timer, not a delayed
 * job: a job queued at the quorum woke the notify worker in the middle of the execution's
 * pick-up. If this process stops within the second, the reconciler does the same.
 */
function lookAfterQuorum(deps: Pick<AppDeps, 'store' | 'queues' | 'log'>, requestId: string): void {
  const look = async () => {
    const first = await deps.store.execution(executionId(requestId, 1));
    if (first?.state !== 'queued') return;
    await Promise.all([
      deps.queues.enqueueTry(first.id, first.tries + 1),
      deps.queues.notify({ requestId, kind: 'card' }),
    ]);
  };
  setTimeout(() => {
    look().catch((err: unknown) => deps.log.warn({ err, requestId }, 'could not look at an approval after its quorum'));
  }, CARD_AFTER_QUORUM_MS).unref();
}

const decidedOf = async (deps: Pick<AppDeps, 'store'>, requestId: string): Promise<Decided | undefined> => {
  const r = await deps.store.get(requestId);
  if (!r) return undefined;
  return { requestId, state: r.state, decidedBy: r.decidedBy, decidedAt: r.decidedAt, expiresAt: r.sealed.expiresAt };
};

export type DenyCheck =
  | Authorisation
  | { kind: 'missing' }
  | { kind: 'late'; decided: Decided }
  | { kind: 'may-deny' }
  | { kind: 'unavailable'; failure: RedisFailure };

/** Before the reason is asked for: may this person deny this request now? Only reads. */
export async function checkDeny(deps: DecideDeps, requestId: string, user: string): Promise<DenyCheck> {
  const refused = await authorise(deps, user);
  if (refused) return refused;
  let decided: Decided | undefined;
  try {
    decided = await decidedOf(deps, requestId);
  } catch (err) {
    const failure = redisFailure(err);
    if (!failure) throw err;
    deps.log.warn({ err, requestId }, 'deny not offered: Redis is unreachable or did not answer');
    return { kind: 'unavailable', failure };
  }
  if (!decided) return { kind: 'missing' };
  return decided.state === 'pending' ? { kind: 'may-deny' } : { kind: 'late', decided };
}

export type DenyOutcome =
  | Authorisation
  | { kind: 'late'; requestId: string; state: ViewState | undefined }
  | { kind: 'denied' };

export async function deny(deps: DecideDeps, requestId: string, user: string, reason: string): Promise<DenyOutcome> {
  // Authorised again on submit: approver lists can change while the modal is open.
  const refused = await authorise(deps, user);
  if (refused) return refused;
  const r = await deps.store.transition(
    requestId,
    ['pending'],
    'denied',
    { event: 'denied', by: user, detail: reason },
    { decidedBy: user, decidedAt: String(deps.now()), denyReason: reason.slice(0, 500) },
  );
  if (!r.ok) return { kind: 'late', requestId, state: r.from };
  deps.log.info({ requestId, by: user }, 'request denied');
  await afterDecision(deps, requestId, 'the outcome reply', () => deps.queues.notify({ requestId, kind: 'outcome' }));
  return { kind: 'denied' };
}

export type CancelOutcome =
  | { kind: 'missing' }
  | { kind: 'not-requester'; requestId: string; requester: string }
  | { kind: 'late'; decided: Decided }
  | { kind: 'cancelled' };

/** Only the requester may cancel, and only while pending. */
export async function cancel(deps: DecideDeps, requestId: string, user: string): Promise<CancelOutcome> {
  const record = await deps.store.get(requestId);
  if (!record) return { kind: 'missing' };
  if (record.sealed.requester !== user) return { kind: 'not-requester', requestId, requester: record.sealed.requester };
  const r = await deps.store.transition(
    requestId,
    ['pending'],
    'cancelled',
    { event: 'cancelled', by: user },
    { decidedBy: user, decidedAt: String(deps.now()) },
  );
  if (!r.ok) {
    const decided = await decidedOf(deps, requestId);
    return decided ? { kind: 'late', decided } : { kind: 'missing' };
  }
  await afterDecision(deps, requestId, 'the outcome reply', () => deps.queues.notify({ requestId, kind: 'outcome' }));
  return { kind: 'cancelled' };
}
