/**
 * The weekly report (issue 24): at REPORT_AT, the last seven days' report is posted in
 * REPORT_CHANNEL, once per week however many workers run — the run's moment is claimed first
 * (store/report-marks.ts). Posting goes through a port that slack/ implements, so queue/ and
 * app/ never import Slack.
 */
import type { VelocityRule } from '../domain/velocity.js';
import type { WeeklyAt } from '../domain/weekly-schedule.js';
import type { Logger } from '../log.js';
import { loadReport, type ReportStore, type ReportView } from './report.js';

export interface ReportPoster {
  /** Posts the report in the channel, with its CSV and chart PNGs in the thread. */
  postReport(channel: string, view: ReportView, days: number): Promise<void>;
}

export interface WeeklyReportDeps {
  at: WeeklyAt;
  channel: string;
  rules: readonly VelocityRule[];
  store: ReportStore;
  poster: ReportPoster;
  claim(runAt: number): Promise<boolean>;
}

export const WEEK_DAYS = 7;

export async function runWeeklyReport(
  deps: WeeklyReportDeps & { now: () => number; log: Logger },
  runAt: number,
): Promise<'taken' | 'posted'> {
  if (!(await deps.claim(runAt))) return 'taken';
  const view = await loadReport({ store: deps.store, rules: deps.rules, now: deps.now }, WEEK_DAYS, deps.at.zone);
  await deps.poster.postReport(deps.channel, view, WEEK_DAYS);
  deps.log.info({ runAt, payments: view.payments.length }, 'weekly report posted');
  return 'posted';
}
