/**
 * Skip one run of a series, or end it: who may is domain/rules/series-actions.ts, read just before;
 * the scripts (store/lua/series-skip.lua, series-end.lua) then settle any race with a run's
 * creation in the step that records it, and the loser is told which happened. Afterwards the
 * series' card is redrawn and its thread gets one line, through the notify jobs.
 */
import { type Actor, actorSource } from '../../domain/actor.js';
import { type SeriesActionFacts, seriesEndRule, seriesSkipRule } from '../../domain/rules/series-actions.js';
import type { RunMark } from '../../domain/series.js';
import type { SeriesActionOutcome } from '../../domain/series-answers.js';
import type { SeriesStore } from '../../store/series.js';
import { authorise } from '../decide.js';
import type { AppDeps } from '../deps.js';

export type SeriesActionDeps = Pick<AppDeps, 'store' | 'queues' | 'approvers' | 'log' | 'controls' | 'now'> & {
  series: SeriesStore;
};

type Refused = Extract<SeriesActionOutcome, { kind: 'refused' }>;

/**
 * The series and what the rule reads, or the answer when there is no such series. The approvers'
 * directory is asked unless the actor is the requester of a series they end.
 */
async function read(
  deps: SeriesActionDeps,
  seriesId: string,
  actor: Actor,
  action: 'skip' | 'end',
): Promise<SeriesActionFacts | Refused | Extract<SeriesActionOutcome, { kind: 'approver-check-failed' }>> {
  // The series and its run marks in one read (one hash holds both).
  const { record, marks } = await deps.series.read(seriesId);
  if (record?.shape !== 'series') return { kind: 'refused', action, code: 'missing', seriesId };
  const requester = record.sealed.requester;
  let isApprover = false;
  if (action === 'skip' || actor.user !== requester) {
    const refused = await authorise(deps, actor.user);
    if (refused?.kind === 'approver-check-failed')
      return { kind: 'approver-check-failed', seriesId, error: refused.error };
    isApprover = refused === undefined;
  }
  return {
    state: record.approvalState,
    requester,
    isApprover,
    runs: record.sealed.schedule?.runs.length ?? 0,
    marks: [...marks.values()].sort((a, b) => a.k - b.k),
  };
}

const markOf = (marks: readonly RunMark[], k: number) => marks.find((m) => m.k === k);

/** Any approver skips run k before it is created; a creation that won first is said as such. */
export async function skipRun(
  deps: SeriesActionDeps,
  actor: Actor,
  seriesId: string,
  k: number,
): Promise<SeriesActionOutcome> {
  const facts = await read(deps, seriesId, actor, 'skip');
  if ('kind' in facts) return facts.kind === 'refused' ? { ...facts, k } : facts;
  const rule = seriesSkipRule(actor, facts, k);
  const base = { kind: 'refused', action: 'skip', seriesId, k } as const;
  if (!rule.ok)
    return { ...base, code: rule.code, runId: rule.runId, skip: rule.skip, state: facts.state, runs: facts.runs };
  const r = await deps.series.skipRun(seriesId, k, { by: actor.user, source: actorSource(actor) });
  switch (r.outcome) {
    case 'skipped':
      deps.log.info({ requestId: seriesId, run: k, by: actor.user }, 'series run skipped');
      // The card shows the skipped run; the thread says who skipped it (app/notices/notify.ts).
      await deps.queues.notify({ requestId: seriesId, kind: 'run-skipped' });
      return { kind: 'skipped', seriesId, k };
    case 'created':
      return { ...base, code: 'run_created', runId: r.id };
    case 'already_skipped': {
      const mark = markOf(await deps.series.runs(seriesId), k);
      return { ...base, code: 'already_skipped', skip: mark?.status === 'skipped' ? mark : undefined };
    }
    case 'not_live':
      return { ...base, code: r.state === 'ended' ? 'already_ended' : 'not_live', state: r.state };
  }
}

/**
 * Any approver or the requester ends a live series; its last run, when created and still
 * unsent, is cancelled in the same step (nothing is sent), and its own card says so.
 */
export async function endSeries(deps: SeriesActionDeps, actor: Actor, seriesId: string): Promise<SeriesActionOutcome> {
  const facts = await read(deps, seriesId, actor, 'end');
  if ('kind' in facts) return facts;
  return end(deps, actor, seriesId, facts);
}

async function end(
  deps: SeriesActionDeps,
  actor: Actor,
  seriesId: string,
  facts: SeriesActionFacts,
): Promise<SeriesActionOutcome> {
  const rule = seriesEndRule(actor, facts);
  if (!rule.ok) return { kind: 'refused', action: 'end', seriesId, code: rule.code, state: facts.state };
  const r = await deps.series.end(seriesId, actor.user, deps.controls.ledgerPrefix, actorSource(actor));
  if (r.outcome === 'not_live')
    return {
      kind: 'refused',
      action: 'end',
      seriesId,
      code: r.state === 'ended' ? 'already_ended' : 'not_live',
      state: r.state,
    };
  const run = r.run
    ? { ...r.run, k: (await deps.series.runs(seriesId)).find((m) => m.status === 'created' && m.id === r.run?.id)?.k }
    : undefined;
  deps.log.info({ requestId: seriesId, by: actor.user, run: run?.id, was: run?.was }, 'series ended');
  if (run?.was === 'cancelled') {
    await deps.store.appendHistory(seriesId, {
      at: deps.now(),
      event: 'run cancelled',
      by: actor.user,
      detail: `run ${run.k ?? '?'}: ${run.id} cancelled, nothing sent`,
    });
    // The run's own card and thread say it was cancelled with the series.
    await deps.queues.notify({ requestId: run.id, kind: 'outcome' });
  }
  await deps.queues.notify({ requestId: seriesId, kind: 'series-ended' });
  return { kind: 'ended', seriesId, run };
}
