/**
 * The weekly report: at REPORT_AT, the last seven days' report is posted in
 * REPORT_CHANNEL, once per week however many workers run — the run's moment is claimed first
 * (store/report-marks.ts). Posting goes through a port that slack/ implements, so queue/ and
 * app/ never import Slack.
 *
 * A post that fails after the claim is tried again, never posted twice: when nothing can have
 * been posted (the report could not be built, or Slack answered with an error or a rate limit)
 * the claim is given back and the job throws, so BullMQ's next attempt posts it; when the post
 * may have reached Slack (no answer) the claim stays and it is not tried again.
 */
import type { VelocityRule } from '../domain/velocity.js';
import type { WeeklyAt } from '../domain/weekly-schedule.js';
import type { Logger } from '../log.js';
import { loadReport, type ReportStore, type ReportView } from './report.js';

export type PostAnswer = { ts: string } | { refused: string };

export interface ReportPoster {
  /**
   * Posts the report's message: its ts, or `refused` when Slack answered without posting it (an
   * error answer, a rate limit). Throws when it may have been posted (no answer, time-out).
   */
  postReport(channel: string, view: ReportView, days: number): Promise<PostAnswer>;
  /** The CSV and the chart PNGs in the report's thread. */
  attachFiles(channel: string, ts: string, view: ReportView, days: number): Promise<void>;
}

export interface WeeklyReportDeps {
  at: WeeklyAt;
  channel: string;
  rules: readonly VelocityRule[];
  store: ReportStore;
  poster: ReportPoster;
  claim(runAt: number): Promise<boolean>;
  /** Gives a claimed run back: nothing was posted, so the next attempt may post it. */
  release(runAt: number): Promise<void>;
}

export const WEEK_DAYS = 7;

/** Thrown when a claimed week was not posted and its claim was given back: BullMQ tries it again. */
export class WeeklyReportNotPosted extends Error {}

async function postOrRelease(
  deps: WeeklyReportDeps & { now: () => number; log: Logger },
  runAt: number,
): Promise<{ view: ReportView; answer: PostAnswer } | 'unsure'> {
  let view: ReportView;
  try {
    view = await loadReport({ store: deps.store, rules: deps.rules, now: deps.now }, WEEK_DAYS, deps.at.zone);
  } catch (err) {
    await deps.release(runAt);
    throw new WeeklyReportNotPosted('the weekly report could not be built; it is tried again', { cause: err });
  }
  try {
    return { view, answer: await deps.poster.postReport(deps.channel, view, WEEK_DAYS) };
  } catch (err) {
    // It may have been posted: a second post could repeat it, so this week's stays claimed.
    deps.log.error(
      { err, runAt },
      'the weekly report may not have been posted; not tried again, to never post it twice',
    );
    return 'unsure';
  }
}

export async function runWeeklyReport(
  deps: WeeklyReportDeps & { now: () => number; log: Logger },
  runAt: number,
): Promise<'taken' | 'posted' | 'unsure'> {
  if (!(await deps.claim(runAt))) return 'taken';
  const posted = await postOrRelease(deps, runAt);
  if (posted === 'unsure') return 'unsure';
  const { view, answer } = posted;
  if ('refused' in answer) {
    await deps.release(runAt);
    throw new WeeklyReportNotPosted(`Slack did not post the weekly report (${answer.refused}); it is tried again`);
  }
  // The message is up: a failed upload is logged, never a reason to post the report again.
  await deps.poster
    .attachFiles(deps.channel, answer.ts, view, WEEK_DAYS)
    .catch((err: unknown) => deps.log.warn({ err, runAt }, 'the weekly report’s files were not attached'));
  deps.log.info({ runAt, payments: view.payments.length }, 'weekly report posted');
  return 'posted';
}
