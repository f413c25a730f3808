/**
 * The kill switch: /freeze stops every approval and every execution at once (both are
 * checked inside the scripts that would move a request); /unfreeze needs two approvers (one when
 * only one person is configured) who choose what happens to what the freeze held.
 */
import { randomUUID } from 'node:crypto';
import type { RequestRecord } from '../domain/request.js';
import type { FreezeState, UnfreezeChoice, UnfreezeProposal, UnfreezeStore } from '../store/controls.js';
import { cancelUnsent, continueBatch } from './batch-run.js';
import { type Authorisation, authorise } from './decide.js';
import type { AppDeps } from './deps.js';
import { NO_REASON } from './freeze-reason.js';

export type SealDeps = Pick<AppDeps, 'store' | 'queues' | 'approvers' | 'controls' | 'config' | 'log' | 'now'> & {
  unfreeze: UnfreezeStore;
};

export type FreezeOutcome =
  | Authorisation
  | { kind: 'already'; freeze: FreezeState }
  | { kind: 'frozen'; freeze: FreezeState; open: number };

/** Records the freeze in each open request's history and refreshes its card (banner). */
export async function freeze(deps: SealDeps, user: string, reason: string): Promise<FreezeOutcome> {
  const refused = await authorise(deps, user);
  if (refused) return refused;
  const state: FreezeState = { by: user, at: deps.now(), reason: reason.trim().slice(0, 300) || NO_REASON };
  const set = await deps.controls.setFreeze(state);
  if (!set.created) return { kind: 'already', freeze: set.state };
  deps.log.warn({ by: user }, 'Rampart frozen: no approval or execution until an unfreeze is approved');
  const open = await deps.store.openIds();
  for (const id of open) {
    await deps.store.appendHistory(id, { at: state.at, event: 'frozen', by: user, detail: state.reason });
    await deps.queues.notify({ requestId: id, kind: 'card' });
  }
  return { kind: 'frozen', freeze: state, open: open.length };
}

/** Two different approvers, or the only one when APPROVERS names exactly one person. */
export const unfreezeQuorum = (approvers: readonly string[]): number =>
  approvers.length === 1 && !approvers[0]?.startsWith('S') ? 1 : 2;

/**
 * Approvals the freeze holds: approved or running with executions not yet started,
 * and paused batches (unfreeze-cancel cancels their unsent rows too; the cancel's
 * lift waits for the ready index to empty, which a paused batch with queued rows is in).
 */
export async function heldRequests(deps: Pick<AppDeps, 'store'>): Promise<RequestRecord[]> {
  const ids = await deps.store.executions.readyIds(500);
  const [records, now] = await Promise.all([Promise.all(ids.map((id) => deps.store.get(id))), deps.store.redisNow()]);
  // One waiting for its runAt is not held: release leaves its delayed try to wake at that time,
  // and cancel leaves it alone (the unfreeze cancels only what the freeze held).
  return records.filter(
    (r): r is RequestRecord =>
      r !== undefined &&
      (r.approvalState === 'approved' || r.approvalState === 'running' || r.approvalState === 'paused') &&
      r.counts.queued > 0 &&
      (r.runAt ?? 0) <= now,
  );
}

const PAGE = 500;

export type StartUnfreezeOutcome =
  | Authorisation
  | { kind: 'not-frozen' }
  | {
      kind: 'proposal';
      created: boolean;
      proposal: UnfreezeProposal;
      freeze: FreezeState;
      held: RequestRecord[];
      required: number;
    };

export async function startUnfreeze(deps: SealDeps, user: string): Promise<StartUnfreezeOutcome> {
  const refused = await authorise(deps, user);
  if (refused) return refused;
  const state = await deps.controls.freeze();
  if (!state) return { kind: 'not-frozen' };
  const { created, proposal } = await deps.unfreeze.open({ id: randomUUID(), by: user, at: deps.now() });
  return {
    kind: 'proposal',
    created,
    proposal,
    freeze: state,
    held: await heldRequests(deps),
    required: unfreezeQuorum(deps.config.approvers),
  };
}

export type UnfreezeOutcome =
  | Authorisation
  | { kind: 'not-frozen' }
  | { kind: 'stale' }
  | { kind: 'voted'; proposal: UnfreezeProposal; freeze: FreezeState; held: RequestRecord[]; required: number }
  | { kind: 'lifted'; choice: UnfreezeChoice; proposal: UnfreezeProposal; held: string[] };

/** One click on the unfreeze card; at quorum the freeze lifts and the held requests are released or cancelled. */
export async function voteUnfreeze(
  deps: SealDeps,
  user: string,
  proposalId: string,
  choice: UnfreezeChoice,
): Promise<UnfreezeOutcome> {
  const refused = await authorise(deps, user);
  if (refused) return refused;
  const required = unfreezeQuorum(deps.config.approvers);
  const v = await deps.unfreeze.vote(proposalId, user, choice, required);
  if (v.outcome === 'not_frozen') return { kind: 'not-frozen' };
  if (v.outcome === 'stale') return { kind: 'stale' };
  const proposal = (await deps.unfreeze.proposal()) ?? { id: proposalId, by: user, at: deps.now(), votes: {} };
  if (v.outcome !== 'decided') {
    const state = await deps.controls.freeze();
    if (!state) return { kind: 'not-frozen' };
    return { kind: 'voted', proposal, freeze: state, held: await heldRequests(deps), required };
  }
  const held = await lift(deps, v.choice, proposal);
  return { kind: 'lifted', choice: v.choice, proposal: { ...proposal, decided: v.choice }, held };
}

/** Idempotent: a second run (a crash half-way, a late click) finds less to do. */
async function lift(deps: SealDeps, choice: UnfreezeChoice, proposal: UnfreezeProposal): Promise<string[]> {
  const approvers = Object.entries(proposal.votes)
    .filter(([, c]) => c === choice)
    .map(([u]) => `<@${u}>`)
    .join(', ');
  const done: string[] = [];
  for (let round = 0; round < 20; round++) {
    const held = await heldRequests(deps);
    for (const r of held) {
      const id = r.sealed.id;
      if (choice === 'cancel') {
        // Every unsent execution, a page per script; one reply (and card refresh) per approval.
        // A batch's cancelled rows give back their own units in that script, once (its
        // rows that ran keep theirs); a single request its whole reservation, in that script too.
        const n = await cancelUnsent({ ...deps, jobs: deps.queues }, id, {
          event: 'cancelled',
          detail: `cancelled by the unfreeze (${approvers}); it never ran`,
        });
        if (n === 0) continue;
        await deps.queues.notify({ requestId: id, kind: 'outcome' });
      } else {
        await deps.store.appendHistory(id, {
          at: deps.now(),
          event: 'released',
          detail: `by the unfreeze (${approvers})`,
        });
      }
      if (!done.includes(id)) done.push(id);
    }
    if ((await deps.unfreeze.lift(choice, deps.store.keys.ready)) === 'lifted') break;
  }
  deps.log.warn({ choice, held: done.length }, 'Rampart unfrozen');
  for (const id of await deps.store.openIds()) {
    await deps.store.appendHistory(id, {
      at: deps.now(),
      event: 'unfrozen',
      detail: `${choice} chosen by ${approvers}`,
    });
    await deps.queues.notify({ requestId: id, kind: 'card' });
  }
  if (choice === 'unfreeze') for (const id of done) await releaseApproval(deps, id);
  await wakeHeldSeries(deps);
  return done;
}

/**
 * Each live series whose run came due while frozen (store/lua/series-run.lua held it) wakes
 * now, whichever the choice: that run was never created, so nothing of it was held or shown
 * as held; it runs if still within SCHEDULE_GRACE of its time, re-checked as any run, and is
 * skipped with the reason after that (app/series/run-due.ts).
 */
async function wakeHeldSeries(deps: SealDeps): Promise<void> {
  const series = await deps.controls.heldSeries();
  const now = deps.now();
  for (const id of series) await deps.queues.scheduleSeriesRun(id, now, 0);
  await deps.controls.woken(series);
}

/** Each unsent execution of a released approval runs now (its delayed try is promoted). */
async function releaseApproval(deps: SealDeps, id: string): Promise<void> {
  // A batch runs on from its first unsent row (one at a time; its held try promoted).
  if ((await deps.store.shape(id)) === 'batch')
    return continueBatch(
      { store: deps.store, jobs: { enqueueTry: (e, n) => deps.queues.releaseHeld(e, n) }, log: deps.log },
      id,
    );
  for (let offset = 0; ; offset += PAGE) {
    const page = await deps.store.executions.page(id, offset, PAGE);
    for (const e of page) if (e.state === 'queued') await deps.queues.releaseHeld(e.id, e.tries + 1);
    if (page.length < PAGE) return;
  }
}
