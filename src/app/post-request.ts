/**
 * Freezes a request and puts it up for approval: stored in Redis with its history, expiry
 * scheduled as a delayed job (survives restarts), card posted by the notify worker.
 * Every submission ends in exactly one of "card posted" or "the person was told nothing was
 * submitted", however slow Redis is.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApprovalShape, approvalHashOf, cardHash, hashedTiming } from '../domain/approval.js';
import { type OpenCaps, openCapRefusal } from '../domain/open-caps.js';
import type { RequestDisplay, SealedRequest, ServiceCall, Timing } from '../domain/request.js';
import type { SealedSchedule } from '../domain/schedule.js';
import { whenRedisAnswers } from '../store/redis-errors.js';
import type { CreateOutcome } from '../store/requests.js';
import type { AppDeps } from './deps.js';
import type { ApprovalJobs } from './ports.js';
import type { SubmitBudget } from './submit-budget.js';

export interface NewRequest {
  /** An id allocated beforehand (a batch's `B-<n>`); default: the next `R-<n>`. */
  id?: string;
  /** One payment (default) or a batch of rows: stored on the approval, read by every script. */
  shape?: ApprovalShape;
  call: ServiceCall;
  display: RequestDisplay;
  requester: string;
  reason: string;
  origin: string | undefined;
  required: number;
  rule: string;
  /** The modal's view id: one submitted form makes at most one request. */
  submission: string;
  /**
   * The approval's executions, one sealed call each (default: `call` alone). `call`
   * stays what the card describes.
   */
  calls?: readonly ServiceCall[];
  /** See SealedRequest. */
  availableUnits?: string;
  velocityNote?: string;
  /** Every counted vote needs a passkey: each door answers with needsStepUp, none may leave it out. */
  stepUp: boolean;
  /** Made with an API key (`display.viaApi` names it): the key's --max-open, held in the create. */
  keyMaxOpen?: number;
  /** A cancel window and a set time, decided at submission (domain/timing.ts); sealed with the record. */
  timing?: Timing | undefined;
  /** A series' schedule and run dates (shape `series`), sealed with the record. */
  schedule?: SealedSchedule | undefined;
}

export type Submitted =
  | { kind: 'created'; sealed: SealedRequest }
  /** This form was already turned into request `id` (a repeated submission). */
  | { kind: 'taken'; id: string }
  /** Nothing was stored, and nothing will be: tell the person so. */
  | { kind: 'nothing' }
  /** The requester (MAX_OPEN_PER_REQUESTER) or the API key (--max-open) is at its cap; `reason` says so. */
  | { kind: 'refused'; reason: string; code: 'too_many_open' };

/** 20 tries 2 s apart: done within 40 s, before the reconciler's 60 s grace posts any card. */
const WITHDRAW_ATTEMPTS = 20;
const WITHDRAW_EVERY_MS = 2_000;

type SealDeps = Pick<AppDeps, 'store' | 'now' | 'config' | 'log'>;

/** A payment that waits keeps its timing sealed (and hashed, domain/approval.ts approvalHash). */
const timingField = (timing: NewRequest['timing']): { timing?: NonNullable<NewRequest['timing']> } => {
  const waits = hashedTiming(timing);
  return waits ? { timing: waits } : {};
};

function sealedFrom(deps: SealDeps, r: NewRequest, id: string): SealedRequest {
  const now = deps.now();
  return {
    id,
    call: r.call,
    display: r.display,
    requester: r.requester,
    reason: r.reason,
    origin: r.origin,
    createdAt: now,
    expiresAt: now + deps.config.requestExpiryMs,
    requiredApprovals: r.required,
    rule: r.rule,
    // The card shows the approvalHash; each execution re-checks its full sealHash.
    hash: cardHash(approvalHashOf(r.calls ?? [r.call], r.timing, r.schedule?.runs)),
    ...(r.availableUnits === undefined ? {} : { availableUnits: r.availableUnits }),
    ...(r.velocityNote === undefined ? {} : { velocityNote: r.velocityNote }),
    ...(r.stepUp ? { stepUp: true } : {}),
    ...timingField(r.timing),
    ...(r.schedule ? { schedule: r.schedule } : {}),
  };
}

/**
 * BATCH_REPEAT_WINDOW for the recent-payments index (the store's default without
 * one) and the open caps every create is held to, in the create's own script.
 */
const createOptions = (
  deps: SealDeps,
  r: NewRequest,
): { repeatWindowMs?: number; caps: OpenCaps; shape: ApprovalShape } => {
  const ms = (deps.config.batch as SealDeps['config']['batch'] | undefined)?.repeatWindowMs;
  const caps: OpenCaps = {
    requester: deps.config.maxOpenPerRequester,
    ...(r.keyMaxOpen === undefined ? {} : { apiKey: r.keyMaxOpen }),
  };
  const shape = r.shape ?? 'single';
  return ms === undefined ? { caps, shape } : { repeatWindowMs: ms, caps, shape };
};

/** What a create's answer means for the person who submitted. */
function submittedOf(c: CreateOutcome, sealed: SealedRequest): Submitted {
  switch (c.outcome) {
    case 'created':
      return { kind: 'created', sealed };
    case 'taken':
      return { kind: 'taken', id: c.id };
    case 'too_many_open': {
      const refusal = openCapRefusal(c.holder, c.open, sealed.display.viaApi?.keyName);
      return { kind: 'refused', reason: refusal.message, code: refusal.code };
    }
    case 'late':
      return { kind: 'nothing' };
  }
}

/**
 * Stores the sealed request in one atomic step with the form's claim; call `announce` after
 * acking Slack. With a budget (Slack's 3 s) the create carries a deadline on Redis's clock, so
 * "nothing" is the truth; without one (the CLI) it waits for Redis as long as it takes.
 */
export async function sealRequest(deps: SealDeps, r: NewRequest, budget?: SubmitBudget): Promise<Submitted> {
  if (!budget) {
    // A series' id is S-<n> from the same sequence (store/requests.ts allocate).
    const id = r.id ?? (r.shape === 'series' ? (await deps.store.allocate('S')).id : await deps.store.nextId());
    const sealed = sealedFrom(deps, r, id);
    const c = await deps.store.create(
      sealed,
      { submission: r.submission, ...createOptions(deps, r) },
      r.calls ?? [r.call],
    );
    return submittedOf(c, sealed);
  }
  let allocated: { id: string; redisNowMs: number };
  try {
    allocated = await budget.beforeCreate(deps.store.allocate(r.shape === 'series' ? 'S' : 'R'));
  } catch (err) {
    deps.log.warn({ err }, 'no request id in time; the requester is told nothing was submitted');
    return { kind: 'nothing' };
  }
  const readAt = budget.now();
  const sealed = sealedFrom(deps, r, allocated.id);
  const creating = deps.store.create(
    sealed,
    {
      submission: r.submission,
      notAfterRedisMs: budget.createByOnRedis(allocated.redisNowMs, readAt),
      ...createOptions(deps, r),
    },
    r.calls ?? [r.call],
  );
  try {
    const c = await budget.untilAnswer(creating);
    if (c.outcome === 'late')
      deps.log.warn({ requestId: sealed.id }, 'Redis ran the create after its deadline; nothing was stored');
    return submittedOf(c, sealed);
  } catch (err) {
    deps.log.warn(
      { err, requestId: sealed.id },
      'no answer from Redis in time; the requester is told nothing was submitted',
    );
    void withdrawIfCreated(deps, sealed.id, creating, budget.left('createBy'));
    return { kind: 'nothing' };
  }
}

/**
 * The person was told nothing was submitted, so a create that ran before its deadline but
 * answered too late (a rare reply delay) must not stand: it is cancelled before anyone sees it
 * (the reconciler leaves card-less requests alone for a grace period).
 */
async function withdrawIfCreated(
  deps: SealDeps,
  id: string,
  creating: Promise<{ outcome: string }>,
  untilDeadlineMs: number,
): Promise<void> {
  const c = await creating.catch(() => undefined);
  if (c && c.outcome !== 'created') return;
  // Unknown (the call failed) or created: after the deadline Redis's answer is final.
  await sleep(untilDeadlineMs + 50);
  // Redis may still be failing: keep trying well inside the reconciler's grace (CARD_GRACE_MS).
  for (let attempt = 0; attempt < WITHDRAW_ATTEMPTS; attempt++) {
    try {
      const r = await deps.store.transition(
        id,
        ['pending'],
        'cancelled',
        {
          event: 'cancelled',
          by: 'rampart',
          detail: 'the form got no answer in time; the requester was told nothing was submitted',
        },
        { decidedAt: String(deps.now()) },
      );
      if (r.ok) deps.log.error({ requestId: id }, 'a request created after its form gave up was cancelled');
      return;
    } catch (err) {
      deps.log.warn({ err, requestId: id, attempt }, 'could not yet withdraw a request created after its form gave up');
      await sleep(WITHDRAW_EVERY_MS);
    }
  }
  deps.log.error({ requestId: id }, 'could not withdraw a request created after its form gave up');
}

/**
 * Schedules expiry and the card. Runs after the ack; if Redis fails here the reconciler posts
 * the card and schedules the expiry of any pending request that lacks them.
 */
/** What announcing needs of the queues (the CLI passes them opened lazily). */
export type AnnounceJobs = Pick<ApprovalJobs, 'scheduleExpiry' | 'notify' | 'scheduleReminder'>;
type AnnounceDeps = Pick<AppDeps, 'log' | 'now'> & {
  queues: AnnounceJobs;
  config?: Pick<AppDeps['config'], 'controls'>;
};

export async function announce(deps: AnnounceDeps, sealed: SealedRequest): Promise<void> {
  deps.log.info(
    { requestId: sealed.id, kind: sealed.call.kind, requester: sealed.requester, hash: sealed.hash },
    'request posted',
  );
  try {
    // After the ack nobody waits: ride out a Redis stall rather than leave it to the reconciler.
    await whenRedisAnswers(() => deps.queues.scheduleExpiry(sealed.id, sealed.expiresAt - deps.now()));
    await whenRedisAnswers(() => deps.queues.notify({ requestId: sealed.id, kind: 'card' }));
    // The first reminder and the escalation, as delayed jobs that survive restarts.
    const c = deps.config?.controls;
    if (c?.reminderAfterMs)
      await deps.queues.scheduleReminder({ requestId: sealed.id, kind: 'remind', n: 1 }, c.reminderAfterMs);
    if (c?.escalateAfterMs)
      await deps.queues.scheduleReminder({ requestId: sealed.id, kind: 'escalate', n: 1 }, c.escalateAfterMs);
  } catch (err) {
    deps.log.error({ err, requestId: sealed.id }, 'could not queue the card or expiry; the reconciler will');
  }
}

/** Acks (a late ack throws once Slack has given up) and announces whatever happens to the ack. */
export async function ackThenAnnounce(
  deps: AnnounceDeps,
  ack: () => Promise<void>,
  sealed: SealedRequest,
): Promise<void> {
  try {
    await ack();
  } catch (err) {
    deps.log.warn({ err, requestId: sealed.id }, 'the ack was too late; the card is posted anyway');
  }
  await announce(deps, sealed);
}
