/**
 * Who may skip a run of a series or end it, and when: any approver skips one run not yet created;
 * any approver or the series' requester ends it. Decided here once for every door (the card, App
 * Home, the CLI); the skip and end scripts (store/lua/series-skip.lua, series-end.lua) settle the
 * races with a run's creation in the step that records them, and answer with the same codes. Pure.
 */
import type { Actor } from '../actor.js';
import type { RunMark, SkipMark } from '../series.js';
import { ALLOW, type RuleOutcome } from './outcome.js';

export type SeriesActionCode =
  | 'missing'
  /** Neither an approver nor, for an end, the series' requester. */
  | 'not_an_approver'
  | 'not_live'
  | 'already_ended'
  | 'no_such_run'
  | 'run_created'
  | 'already_skipped';

/** What a skip or an end is judged on, read just before the script runs. */
export interface SeriesActionFacts {
  /** The series' own state (domain/series.ts SeriesState); undefined: there is no such series. */
  state: string | undefined;
  requester: string;
  /** The actor is an approver (checked against the directory). */
  isApprover: boolean;
  /** How many runs the series sealed. */
  runs: number;
  /** What the series recorded of each run so far. */
  marks: readonly RunMark[];
}

/** The state part, shared: a series that is not live has nothing to skip or end. */
function liveRule(f: SeriesActionFacts): RuleOutcome<'not_live' | 'already_ended'> {
  if (f.state === 'ended') return { ok: false, code: 'already_ended' };
  if (f.state !== 'live') return { ok: false, code: 'not_live' };
  return ALLOW;
}

/**
 * Any approver may skip run k of a live series, once, before it is created: a created run is
 * an approval of its own, cancelled on its own card.
 */
export function seriesSkipRule(
  // Who skips matters only as an approver (isApprover); the actor keeps every decision's shape.
  _actor: Pick<Actor, 'user'>,
  f: SeriesActionFacts,
  k: number,
): RuleOutcome<SeriesActionCode, { runId?: string; skip?: SkipMark }> {
  if (f.state === undefined) return { ok: false, code: 'missing' };
  if (!f.isApprover) return { ok: false, code: 'not_an_approver' };
  const live = liveRule(f);
  if (!live.ok) return live;
  if (!Number.isInteger(k) || k < 1 || k > f.runs) return { ok: false, code: 'no_such_run' };
  const mark = f.marks.find((m) => m.k === k);
  if (mark?.status === 'created') return { ok: false, code: 'run_created', runId: mark.id };
  if (mark?.status === 'skipped') return { ok: false, code: 'already_skipped', skip: mark };
  return ALLOW;
}

/** Any approver or the series' requester may end a live series. */
export function seriesEndRule(actor: Pick<Actor, 'user'>, f: SeriesActionFacts): RuleOutcome<SeriesActionCode> {
  if (f.state === undefined) return { ok: false, code: 'missing' };
  if (!f.isApprover && actor.user !== f.requester) return { ok: false, code: 'not_an_approver' };
  return liveRule(f);
}
