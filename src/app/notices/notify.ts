/**
 * Posts and refreshes the card, and posts each outcome once in its thread, through the notifier
 * port. Runs as a durable job: a failure retries the job with backoff; a rate limit moves it to
 * the delayed set for as long as asked (BullMQ's delay, not a sleep inside the job); a reply is
 * never dropped, and a reply already posted is not posted again.
 */

import { coolingEntry } from '../../domain/address-book.js';
import type { HistoryEntry, RequestRecord } from '../../domain/request.js';
import { isBatchRecord } from '../../domain/request.js';
import { isScreeningCancel } from '../../domain/rules/screening.js';
import { runDayWords } from '../../domain/schedule-words.js';
import type { RunMark, SkipMark } from '../../domain/series.js';
import type { Logger } from '../../log.js';
import type { SeriesReply } from '../../presenters/series-thread.js';
import type { RequestStore } from '../../store/requests.js';
import { scheduleProgress } from '../batch-run.js';
import { type CardRef, type Milestone, NeedsAdminError, type Notifier, RateLimitedError } from '../notifier.js';
import type { JobQueue, NotifyRequest } from '../ports.js';
import { CARD_BUSY_WAIT_MS, type ProgressLimits, redrawBatchCard, runProgress, seenSince } from './batch-progress.js';
import { batchThread } from './batch-thread.js';

export interface NotifyDeps {
  notifier: Notifier;
  store: RequestStore;
  log: Logger;
  approvalsChannel: string;
  /** Queues a batch's progress job; without it no progress message is posted. */
  jobs?: Pick<JobQueue, 'notify'> | undefined;
  /** The progress message's throttles (undefined: none, as in unit tests). */
  progress?: ProgressLimits | undefined;
  /** Whether Rampart is frozen now (a running batch's card shows it); undefined: never. */
  frozen?: (() => Promise<boolean>) | undefined;
  /** Reads the wallet's balances once for each execution just recorded unknown (app/unknown-reading.ts). */
  unknownReadings?: ((record: RequestRecord) => Promise<void>) | undefined;
  /** The clock the notice before a run says "today" or "tomorrow" by (default: Date.now). */
  now?: (() => number) | undefined;
  /** Who the approvers are: each gets an approved address-book entry's cooling notice (absent: none). */
  approvers?: { members(): Promise<string[]> } | undefined;
  /** A series' run marks (store/series.ts SeriesStore.runs): its thread tells each skipped run from its mark. */
  runMarks?: ((seriesId: string) => Promise<readonly RunMark[]>) | undefined;
}

/**
 * `wait`: the job asks to run again after this many ms (a throttled progress update).
 * `enqueuedAt`: when the job was queued (BullMQ's timestamp), to skip a batch's redundant redraws.
 */
export async function notify(
  deps: NotifyDeps,
  job: NotifyRequest,
  enqueuedAt?: number,
): Promise<{ wait: number } | undefined> {
  const { notifier, store } = deps;
  if (job.kind === 'progress') return runProgress(deps, job.requestId);
  if (job.kind === 'card' && enqueuedAt !== undefined && (await seenSince(store, job.requestId, enqueuedAt)))
    return undefined;
  let record = await store.get(job.requestId);
  if (!record) {
    deps.log.error({ requestId: job.requestId }, 'notify: request missing');
    return undefined;
  }
  if (job.kind === 'run-notice') return runNotice(deps, record, job.run);
  let card = record.card;
  if (!card) {
    // Two notify jobs can race here; a short claim keeps the card single.
    if (!(await store.claim(record.sealed.id, 'card', 30_000)))
      throw new Error('card is being posted by another job; retrying');
    card = await postCardOnce(deps, record);
    await store.setCard(record.sealed.id, card);
    await notifier.confirmPosted(record, card);
  } else if (isBatchRecord(record)) {
    const redrawn = await redrawBatchCard(deps, record.sealed.id, card);
    if (!redrawn) return { wait: CARD_BUSY_WAIT_MS };
    record = redrawn;
  } else {
    await notifier.updateCard(record, card);
  }
  // After the unknown is recorded (this job announces it): the form's reading "when it became unknown".
  if ((job.kind === 'unknown' || job.kind === 'card') && record.counts.unknown > 0)
    await deps.unknownReadings?.(record).catch((err: unknown) => deps.log.warn({ err }, 'unknown reading failed'));
  await tellRequester(deps, record, card);
  if (!isBatchRecord(record)) await waitingForEntry(deps, record);
  if (isBatchRecord(record)) {
    await batchThread(deps, record, card);
    await scheduleProgress(deps, record.sealed.id);
  }
  if (job.kind === 'card') return undefined;
  if (job.kind === 'proposal') {
    // Once per proposal (informational: a lost post is not tried again; the card shows it).
    for (const e of record.executions)
      if (
        e.state === 'unknown' &&
        e.proposal &&
        (await store.markPosted(record.sealed.id, `reply-${e.proposal.id}`, '1'))
      )
        await notifier.postProposal(record, card, e);
    return undefined;
  }
  if (job.kind === 'screened') {
    // Once per cancelled execution (the start script's history entry names it, its code and the list).
    for (const e of (await store.history(record.sealed.id)).filter(isScreeningCancel))
      if (await store.markPosted(record.sealed.id, `screened-${e.execution ?? ''}`, String(Date.now())))
        await notifier.postScreened?.(card, e.execution ?? record.sealed.id, e.detail ?? '');
    return undefined;
  }
  if (job.kind === 'run-skipped') {
    // Every skipped run not yet told, in one reply (after downtime, the missed runs together),
    // said from its skip mark (who skipped it and by which door, or Rampart's reason); each once
    // (the posted key "skipped-run k" as before marks were read); informational, as screened's.
    const told: SkipMark[] = [];
    for (const m of (await deps.runMarks?.(record.sealed.id)) ?? [])
      if (
        m.status === 'skipped' &&
        (await store.markPosted(record.sealed.id, `skipped-run ${m.k}`, String(Date.now())))
      )
        told.push(m);
    if (told.length > 0) await notifier.postSeriesReply?.(card, { kind: 'runs-skipped', runs: told });
    return undefined;
  }
  if (job.kind === 'series-ended') {
    // Once (informational, as run-skipped's): who ended it, and the run it cancelled.
    if (await store.markPosted(record.sealed.id, 'series-ended', String(Date.now())))
      await notifier.postSeriesReply?.(card, seriesEnded(record.sealed.id, await store.history(record.sealed.id)));
    return undefined;
  }
  if (job.kind === 'not-sent') {
    // Once per try (informational: a lost post is not tried again).
    const tries = record.executions[0]?.tries ?? 0;
    if (await store.markPosted(record.sealed.id, `reply-not-sent-${tries}`, String(Date.now())))
      await notifier.postNotSent(record, card);
    return undefined;
  }
  await postOutcomeOnce(deps, record, card);
  await coolingNotices(deps, record, card);
  return undefined;
}

/**
 * The notice before run k in the series' thread, once (a retry of a post whose answer was lost
 * posts nothing more; informational). Nothing for a series no longer live; a card not posted
 * yet makes the job try again later (its thread is where the notice goes).
 */
async function runNotice(deps: NotifyDeps, record: RequestRecord, k: number | undefined): Promise<undefined> {
  const at = k === undefined ? undefined : record.sealed.schedule?.runs[k - 1];
  const zone = record.sealed.schedule?.zone ?? 'UTC';
  if (k === undefined || at === undefined || (record.approvalState as string) !== 'live') return undefined;
  if (!record.card) throw new Error(`${record.sealed.id} has no card yet for its run notice; retrying`);
  if (!(await deps.store.markPosted(record.sealed.id, `notice-${k}`, String(Date.now())))) return undefined;
  const when = runDayWords(at, deps.now?.() ?? Date.now(), zone);
  await deps.notifier.postRunNotice?.(record, record.card, { k, when });
  return undefined;
}

/** Who ended the series (and by which door) and the run it cancelled, from its history. */
function seriesEnded(seriesId: string, history: readonly HistoryEntry[]): SeriesReply {
  const ended = history.find((h) => h.event === 'ended');
  const cancelled = history.find((h) => h.event === 'run cancelled')?.detail?.match(/^run (\S+): (\S+)/);
  return {
    kind: 'ended',
    seriesId,
    by: ended?.by,
    detail: ended?.by ? ended.detail : undefined,
    cancelled: cancelled ? { k: cancelled[1] ?? '', id: cancelled[2] ?? '' } : undefined,
  };
}

/**
 * A single approved before its entry's cooling-off ended waits for it: the entry's addition
 * thread, where its cooling notice is, lists it once (informational: a lost post is not tried
 * again; the payment's own card says it waits).
 */
async function waitingForEntry(deps: NotifyDeps, record: RequestRecord): Promise<void> {
  const e = coolingEntry(record);
  if (!e || !deps.notifier.postWaiting) return;
  const entry = await deps.store.book.get(e.id);
  const addition = entry ? await deps.store.get(entry.requestId) : undefined;
  if (!addition?.card) return;
  if (!(await deps.store.markPosted(record.sealed.id, 'waits-for-entry', String(Date.now())))) return;
  await deps.notifier
    .postWaiting(addition.card, record.sealed.id)
    .catch((err: unknown) => deps.log.warn({ err, requestId: record.sealed.id }, 'could not list a waiting payment'));
}

/**
 * An address-book addition that succeeded: each approver, privately, gets the cooling notice the
 * thread shows ("… becomes usable …: added by @x, approved by @y. Remove it if you did not
 * expect this."), once each (claimed first, as reminders are).
 */
async function coolingNotices(deps: NotifyDeps, record: RequestRecord, card: CardRef): Promise<void> {
  if (record.sealed.call.kind !== 'address-book' || record.state !== 'succeeded' || !deps.approvers) return;
  const text = record.executions[0]?.outcome?.message;
  if (!text) return;
  const id = record.sealed.id;
  for (const user of await deps.approvers.members()) {
    if (!(await deps.store.markPosted(id, `cooling-${user}`, String(Date.now())))) continue;
    try {
      await deps.notifier.coolingNotice(record, card, user, text);
    } catch (err) {
      deps.log.warn({ err, requestId: id, user }, 'could not send an approver the cooling notice');
    }
  }
}

/**
 * The final state's reply, once (a worker killed between Slack's answer and the record
 * must not post it again). As the card: the attempt is marked first, a later attempt that finds
 * the mark looks in the thread for the reply (by its metadata) and records it; two jobs at once
 * are kept apart by a short claim, and the loser retries later rather than skipping.
 */
async function postOutcomeOnce(deps: NotifyDeps, record: RequestRecord, card: CardRef): Promise<void> {
  const { notifier, store } = deps;
  const id = record.sealed.id;
  const what = `reply-${record.state}`;
  if (await store.wasPosted(id, what)) return;
  if (!(await store.claim(id, what, 30_000)))
    throw new Error(`${what} of ${id} is being posted by another job; retrying`);
  try {
    if (!(await store.markPosted(id, `${what}-attempt`, String(Date.now())))) {
      const found = await notifier.findOutcome(record, card);
      if (found) {
        deps.log.warn({ requestId: id, what }, 'the reply was posted by an earlier attempt; recording it');
        await store.markPosted(id, what, found);
        return;
      }
    }
    let ts: string;
    try {
      ts = await notifier.postOutcome(record, card);
    } catch (err) {
      if (err instanceof RateLimitedError || err instanceof NeedsAdminError)
        await store.clearPosted(id, `${what}-attempt`);
      throw err;
    }
    await store.markPosted(id, what, ts);
  } finally {
    await store.release(id, what);
  }
}

/**
 * The requester hears of each approval, the decision and the outcome by direct
 * message, once each. Claimed before sending (a double message is worse than a retry's gap).
 */
async function tellRequester(deps: NotifyDeps, record: RequestRecord, card: CardRef): Promise<void> {
  const id = record.sealed.id;
  const milestones: [string, Milestone][] = record.votes
    .filter((v) => v.user !== record.decidedBy || record.state === 'pending')
    .map((v) => [`dm-vote-${v.user}`, { kind: 'vote', by: v.user }]);
  if (record.state !== 'pending' && record.state !== 'executing')
    milestones.push([`dm-${record.state}`, { kind: 'state' }]);
  for (const [what, milestone] of milestones) {
    if (!(await deps.store.markPosted(id, what, String(Date.now())))) continue;
    try {
      await deps.notifier.tellRequester(record, card, milestone);
    } catch (err) {
      deps.log.warn({ err, requestId: id, what }, 'could not message the requester');
    }
  }
}

/** How far before the first attempt's mark the card may carry its ts (clock skew). */
const FIND_MARGIN_MS = 60_000;

/**
 * Posts the card unless an earlier attempt already did: the attempt is marked in
 * Redis before posting; a later attempt that finds the mark looks for the card in the channel
 * (by its metadata) and records it instead of posting a second one. Only a post Slack provably
 * refused (rate limit, an admin's problem) clears the mark.
 */
async function postCardOnce(deps: NotifyDeps, record: RequestRecord): Promise<CardRef> {
  const { notifier, store } = deps;
  const id = record.sealed.id;
  const firstAttempt = await store.markPosted(id, 'card-attempt', String(Date.now()));
  if (!firstAttempt) {
    const since = Number(await store.postedAt(id, 'card-attempt')) - FIND_MARGIN_MS;
    const found = await notifier.findCard(record, Number.isFinite(since) ? since : 0);
    if (found) {
      deps.log.warn({ requestId: id }, 'the card was posted by an earlier attempt; recording it');
      return found;
    }
  }
  try {
    return await notifier.postCard(record);
  } catch (err) {
    await store.release(id, 'card');
    if (err instanceof RateLimitedError || err instanceof NeedsAdminError) await store.clearPosted(id, 'card-attempt');
    if (err instanceof NeedsAdminError) await reportCardFailure(deps, record, err.problem);
    throw err; // retried with backoff: an admin may fix the channel meanwhile
  }
}

/** A card that cannot be posted leaves a request nobody can approve: say so, once, loudly. */
async function reportCardFailure(
  deps: NotifyDeps,
  record: NonNullable<Awaited<ReturnType<RequestStore['get']>>>,
  problem: string,
): Promise<void> {
  const id = record.sealed.id;
  deps.log.error(
    { requestId: id, slackError: problem, channel: deps.approvalsChannel },
    'the approval card cannot be posted',
  );
  if (!(await deps.store.markPosted(id, 'card-failure', String(Date.now())))) return;
  await deps.notifier.cardUnpostable(record, problem);
}
