/**
 * A live series' job: its due run re-checked against today's rules, then created once as an
 * approval of its own (store/lua/series-run.lua) and queued as any approved request, or skipped
 * with the reason; a late run (a freeze, downtime) within SCHEDULE_GRACE only, at most one; the
 * notice before the next run. Answers when to wake next, for the one delayed job a live series keeps.
 */
import type { SealedRequest } from '../../domain/request.js';
import { notCheckableRefusal, type SeriesSubject } from '../../domain/rules/series.js';
import { runAmountOf } from '../../domain/series.js';
import { planSeries, type SeriesPlan } from '../../domain/series-plan.js';
import type { RunOutcome, SeriesStore } from '../../store/series.js';
import type { AppDeps } from '../deps.js';
import { approvalControls } from '../velocity.js';
import { freshChecks, recheck } from './recheck.js';

export type SeriesRunDeps = Pick<AppDeps, 'config' | 'store' | 'controls' | 'queues' | 'approvers' | 'now'> & {
  /** Beneficiaries' cooling-off, read before an offramp's run (absent: not checked). */
  registry?: AppDeps['registry'] | undefined;
  series: SeriesStore;
  /** The balance read before a run is created, as a fresh request's check reads it. */
  service: Pick<AppDeps['service'], 'getBalances'>;
};

export type RunDue =
  | { outcome: 'none'; nextAt: number | undefined }
  | ({ k: number; nextAt: number | undefined } & RunOutcome);

/** What the amount rules judge: one run's sealed call (domain/series.ts runAmountOf), times the runs. */
function subjectOf(sealed: SealedRequest, runs: number): SeriesSubject | undefined {
  const run = runAmountOf(sealed.call);
  if (!run || (sealed.call.kind !== 'transfer' && sealed.call.kind !== 'offramp')) return undefined;
  return {
    ...run,
    wallet: sealed.display.walletAlias ?? sealed.call.body.wallet_id,
    runs,
    newDestination: sealed.display.newReceiver === true,
  };
}

/**
 * One wake of a live series' job: the missed runs skipped (one thread reply), the due run
 * created (held while frozen), the notice before the next run posted once, and when to wake
 * next (domain/series-plan.ts). Creating a run reads the series, its marks, the freeze and the
 * run's id in one round trip and creates it in a second (store/lua/series-run.lua).
 */
export async function runDue(deps: SeriesRunDeps, seriesId: string): Promise<RunDue> {
  const read = await deps.series.read(seriesId);
  const { record } = read;
  const schedule = record?.sealed.schedule;
  if (record?.shape !== 'series' || !schedule || (record.approvalState as string) !== 'live')
    return { outcome: 'none', nextAt: undefined };
  const now = deps.now();
  const { graceMs, noticeMs } = deps.config.series;
  const plan = planSeries({
    runs: schedule.runs,
    marked: new Set(read.marks.keys()),
    now,
    zone: schedule.zone,
    graceMs,
    noticeMs,
    frozen: read.frozen,
    held: read.held,
  });
  // Every run settled (the last created or skipped, by a person or by Rampart): the series ends.
  if (plan.run === undefined && plan.wakeAt === undefined && read.marks.size >= schedule.runs.length) {
    await endAfterLastRun(deps, seriesId, schedule.runs.length);
    return none(plan);
  }
  if (read.paused) return plan.run ? { k: plan.run, nextAt: plan.wakeAt, outcome: 'paused' } : none(plan);
  // The missed runs first: a crash between the two leaves the latest due, never an older one.
  if (plan.missed.length > 0) await skipMissed(deps, seriesId, plan.missed);
  if (plan.notice !== undefined && (await deps.series.claimNotice(seriesId, plan.notice)))
    await deps.queues.notify(
      { requestId: seriesId, kind: 'run-notice', run: plan.notice },
      `notice-${seriesId}-${plan.notice}`,
    );
  const k = plan.run;
  if (k === undefined) return none(plan);
  const nextAt = plan.wakeAt;
  // Not created while frozen; the unfreeze wakes the series (app/freeze.ts). series-run.lua
  // checks the flag too, for a freeze that lands after this read.
  if (read.frozen && (await deps.series.hold(seriesId, k))) return { k, nextAt, outcome: 'frozen' };
  const subject = subjectOf(record.sealed, schedule.runs.length);
  // Both checks only read: side by side, one round of reads before the run's creation. A failed
  // fresh check skips the run (the series goes on) before today's rules would pause it.
  const [unfunded, rules] = subject
    ? await Promise.all([
        freshChecks(deps, record.sealed, subject),
        recheck(deps, record.sealed, subject, record.votes),
      ])
    : // Nothing an amount rule could read: paused as not checkable, never sent unchecked.
      [undefined, notCheckableRefusal()];
  if (unfunded) return { k, nextAt, ...(await skipUnfunded(deps, seriesId, k, unfunded)) };
  const refused = rules;
  const run = runOf(record.sealed, read.nextId ?? (await deps.series.allocate()), now);
  const velocity = approvalControls(deps).velocity;
  const outcome = await deps.series.createRun(seriesId, k, run, {
    ...(velocity ? { velocity } : {}),
    ...(refused ? { refused } : {}),
    at: schedule.runs[k - 1] ?? now,
  });
  if (outcome.outcome === 'created') await deps.queues.enqueueApproved(outcome.id);
  // A run today's rules or a velocity limit refused is skipped in the script; the thread says why.
  if (outcome.outcome === 'paused_now' || outcome.outcome === 'over_limit')
    await deps.queues.notify({ requestId: seriesId, kind: 'run-skipped' });
  if (nextAt === undefined && outcome.outcome !== 'paused_now')
    await endAfterLastRun(deps, seriesId, schedule.runs.length);
  return { k, nextAt, ...outcome };
}

/** Ends the series once its every run is settled (a no-op otherwise); its card shows it ended. */
async function endAfterLastRun(deps: SeriesRunDeps, seriesId: string, runs: number): Promise<void> {
  if (await deps.series.endAfterLastRun(seriesId, runs))
    await deps.queues.notify({ requestId: seriesId, kind: 'card' });
}

const none = (plan: SeriesPlan): RunDue => ({ outcome: 'none', nextAt: plan.wakeAt });

/** The series' sealed request under the run's id, without the schedule and the series' timing. */
function runOf(sealed: SealedRequest, id: string, now: number): SealedRequest {
  const run: SealedRequest = { ...sealed, id, createdAt: now };
  delete run.schedule;
  delete run.timing;
  return run;
}

/**
 * Missed runs are skipped by Rampart, each under its run key (series-skip.lua: never created
 * later), and the thread lists them in one reply.
 */
async function skipMissed(deps: SeriesRunDeps, seriesId: string, missed: SeriesPlan['missed']): Promise<void> {
  const skipped = await Promise.all(missed.map((m) => deps.series.skipRun(seriesId, m.k, { why: m.why })));
  if (skipped.some((s) => s.outcome === 'skipped'))
    await deps.queues.notify({ requestId: seriesId, kind: 'run-skipped' });
}

/** Skipped under the run's own key (never created later); the series' thread says why. */
async function skipUnfunded(deps: SeriesRunDeps, seriesId: string, k: number, why: string): Promise<RunOutcome> {
  const skipped = await deps.series.skipRun(seriesId, k, { why });
  if (skipped.outcome === 'created') return { outcome: 'exists', id: skipped.id };
  if (skipped.outcome === 'not_live') return { outcome: 'not_live', state: skipped.state };
  if (skipped.outcome === 'skipped') await deps.queues.notify({ requestId: seriesId, kind: 'run-skipped' });
  return { outcome: 'skipped', why };
}
