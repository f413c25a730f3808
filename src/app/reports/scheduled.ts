/**
 * The self-scheduling report jobs (balance snapshots every SNAPSHOT_EVERY, the weekly report at
 * REPORT_AT): when the next run is, and the run itself. Each run's id is its moment, so every
 * worker schedules the same one; DST is domain/weekly-schedule.ts's (the zone's own calendar).
 */
import type { WalletAlias } from '../../domain/wallets.js';
import { nextWeeklyRun } from '../../domain/weekly-schedule.js';
import type { Logger } from '../../log.js';
import type { ServiceClient } from '../../service/client.js';
import type { BalanceHistory } from '../../store/balance-history.js';
import type { Clock } from '../ports.js';
import { periodOf, snapshotBalances } from '../snapshot.js';
import { runWeeklyReport, type WeeklyReportDeps } from '../weekly-report.js';
import { done, type JobOutcome } from '../worker-outcome.js';

export interface ScheduledReportsDeps {
  service: ServiceClient;
  log: Logger;
  now: Clock;
  /** Balance snapshots every SNAPSHOT_EVERY (undefined: none taken). */
  snapshots?: { history: BalanceHistory; wallets: readonly WalletAlias[]; everyMs: number } | undefined;
  /** The weekly report (undefined: REPORT_AT unset). */
  weekly?: WeeklyReportDeps | undefined;
}

/** A run to queue: its moment (the job's id and data) and how long from now. */
export interface NextRun {
  at: number;
  delayMs: number;
}

export function scheduledReports(deps: ScheduledReportsDeps) {
  const { snapshots, weekly, now, log } = deps;
  return {
    /** The snapshot period after now; undefined when snapshots are off. */
    nextSnapshot(): NextRun | undefined {
      if (!snapshots) return undefined;
      const t = now();
      const at = periodOf(t, snapshots.everyMs) + snapshots.everyMs;
      return { at, delayMs: Math.max(0, at - t) };
    },
    /** The weekly report's moment after `after`; undefined when REPORT_AT is unset. */
    nextWeekly(after: number): NextRun | undefined {
      if (!weekly) return undefined;
      const at = nextWeeklyRun(weekly.at, after);
      return { at, delayMs: Math.max(0, at - now()) };
    },
    async snapshot(): Promise<JobOutcome<Awaited<ReturnType<typeof snapshotBalances>> | 'off'>> {
      if (!snapshots) return done('off');
      return done(await snapshotBalances({ service: deps.service, ...snapshots, now, log }));
    },
    async weekly(runAt: number): Promise<JobOutcome<Awaited<ReturnType<typeof runWeeklyReport>> | 'off'>> {
      if (!weekly) return done('off');
      return done(await runWeeklyReport({ ...weekly, now, log }, runAt));
    },
  };
}
