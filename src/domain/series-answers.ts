/**
 * What a person is told after Skip or End on a series, whichever door they used: one sentence,
 * including the loser of a race told which happened ("Run 3 was already created as R-41 and is
 * on its way; cancel it on its card"). `name` writes a person (Slack: a mention; the CLI: the id).
 * Pure.
 */
import type { SeriesActionCode } from './rules/series-actions.js';
import { type SkipMark, skipWords } from './series.js';

export type SeriesActionOutcome =
  | { kind: 'skipped'; seriesId: string; k: number }
  | {
      kind: 'ended';
      seriesId: string;
      /** Its last run, when one was created: cancelled unsent in the end's step, or it had started. */
      run: { k: number | undefined; id: string; was: 'cancelled' | 'started' } | undefined;
    }
  | {
      kind: 'refused';
      code: SeriesActionCode;
      /** What was refused: a skip of run k, or an end. */
      action: 'skip' | 'end';
      seriesId: string;
      k?: number | undefined;
      /** run_created: the run's approval id. */
      runId?: string | undefined;
      /** already_skipped: the run's skip (who skipped it, or why Rampart did). */
      skip?: SkipMark | undefined;
      /** not_live: the series' state; no_such_run: how many runs it has. */
      state?: string | undefined;
      runs?: number | undefined;
    }
  /** The approvers' user group could not be read: say so, never "you are not an approver". */
  | { kind: 'approver-check-failed'; seriesId: string; error: unknown };

const PENDING_WORDS: Record<string, string> = {
  pending: 'is still waiting for its approval; deny it or let its requester cancel it',
  denied: 'was denied, so it has no runs',
  cancelled: 'was cancelled before its approval, so it has no runs',
  expired: 'expired before its approval, so it has no runs',
};

function refusal(o: Extract<SeriesActionOutcome, { kind: 'refused' }>, name: (user: string) => string): string {
  const run = `Run ${o.k ?? '?'}`;
  switch (o.code) {
    case 'missing':
      return `There is no series ${o.seriesId}; check its id.`;
    case 'not_an_approver':
      return o.action === 'end'
        ? `Only an approver or the requester of ${o.seriesId} can end it; ask one of them.`
        : `Only an approver can skip a run of ${o.seriesId}; ask one of them.`;
    case 'not_live':
      return `${o.seriesId} ${PENDING_WORDS[o.state ?? ''] ?? 'is not live'}; there is nothing to skip or end.`;
    case 'already_ended':
      return `${o.seriesId} already ended; no more runs will be created.`;
    case 'no_such_run':
      return `${o.seriesId} has runs 1 to ${o.runs ?? '?'}; there is no run ${o.k ?? '?'}.`;
    case 'run_created':
      return `${run} was already created as ${o.runId ?? 'a request'} and is on its way; cancel it on its card.`;
    case 'already_skipped':
      // Who skipped it, without the door: the person asking needs only who.
      return `${run} was already ${o.skip ? skipWords({ ...o.skip, source: undefined }, name) : 'skipped'}.`;
  }
}

/** The one sentence for an outcome. */
export function seriesActionSentence(o: SeriesActionOutcome, name: (user: string) => string = (user) => user): string {
  switch (o.kind) {
    case 'skipped':
      return `Run ${o.k} of ${o.seriesId} skipped; nothing will be sent for it.`;
    case 'ended': {
      const k = o.run?.k === undefined ? '' : ` ${o.run.k}`;
      if (o.run?.was === 'cancelled') return `${o.seriesId} ended; run${k} (${o.run.id}) cancelled, nothing sent.`;
      if (o.run?.was === 'started')
        return `${o.seriesId} ended; run${k} (${o.run.id}) had already started and goes on: see its card.`;
      return `${o.seriesId} ended; no more runs will be created.`;
    }
    case 'approver-check-failed':
      return 'Slack did not say whether you are an approver; try again in a minute.';
    case 'refused':
      return refusal(o, name);
  }
}
