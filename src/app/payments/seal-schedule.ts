/**
 * A series' schedule sealed at its door (the form or the API), against SCHEDULE_MIN_INTERVAL,
 * SCHEDULE_MAX_RUNS and SCHEDULE_MAX_AHEAD, at the moment it is submitted: one place, so every
 * door seals the same run dates from the same typed schedule.
 */
import { type ScheduleInput, type ScheduleOutcome, sealSchedule } from '../../domain/schedule.js';
import type { AppDeps } from '../deps.js';

export const sealScheduleNow = (deps: Pick<AppDeps, 'config' | 'now'>, input: ScheduleInput): ScheduleOutcome =>
  sealSchedule(input, { ...deps.config.series, maxAheadMs: deps.config.time.maxAheadMs }, deps.now());
