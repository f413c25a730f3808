/**
 * The explicit job registry the worker runs: one file per job type, no directory
 * scanning. `versionOf` reads the data's format version (unversioned data is version 1).
 */
import { executeJobType } from './execute.js';
import { expireJobType } from './expire.js';
import type { JobType } from './job.js';
import { notifyJobType } from './notify.js';
import { remindJobType } from './remind.js';
import { screeningRefreshJobType } from './screening-refresh.js';
import { seriesJobType } from './series.js';
import { snapshotJobType } from './snapshot.js';
import { weeklyReportJobType } from './weekly-report.js';

export const JOB_TYPES: readonly JobType[] = [
  executeJobType,
  expireJobType,
  notifyJobType,
  remindJobType,
  seriesJobType,
  snapshotJobType,
  screeningRefreshJobType,
  weeklyReportJobType,
];

export function versionOf(data: unknown): number {
  const v = (data as { v?: unknown } | null)?.v;
  return typeof v === 'number' && Number.isInteger(v) ? v : 1;
}
