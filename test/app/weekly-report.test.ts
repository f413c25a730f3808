/**
 * Issue 24: the weekly report's run is claimed on Redis, so two workers running the same week's
 * job (BullMQ re-running it, or a job re-added after removal) post it once.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runWeeklyReport } from '../../src/app/weekly-report.js';
import { parseWeeklyAt, type WeeklyAt } from '../../src/domain/weekly-schedule.js';
import { createLogger } from '../../src/log.js';
import { ReportMarks } from '../../src/store/report-marks.js';
import { RequestStore } from '../../src/store/requests.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

const prefix = `test-weekly-${randomUUID().slice(0, 8)}`;
let a: Redis;
let b: Redis;
beforeAll(() => {
  a = new Redis(REDIS_URL);
  b = new Redis(REDIS_URL);
});
afterAll(async () => {
  await a.quit();
  await b.quit();
  await deleteKeys(prefix);
});

it('posts a week’s report once when two workers run the same week', async () => {
  const at = parseWeeklyAt('mon 09:00 Africa/Lagos') as WeeklyAt;
  const posted: string[] = [];
  const worker = (redis: Redis) => {
    const marks = new ReportMarks(redis, prefix);
    return {
      at,
      channel: 'C0REPORTS',
      rules: [],
      store: new RequestStore(redis, prefix),
      poster: { postReport: async (channel: string) => void posted.push(channel) },
      claim: (runAt: number) => marks.claimWeekly(runAt),
      now: () => Date.UTC(2026, 10, 23, 8, 0),
      log: createLogger({ level: 'silent' }, new LogSink()),
    };
  };
  const runAt = Date.UTC(2026, 10, 23, 8, 0);
  const results = await Promise.all([runWeeklyReport(worker(a), runAt), runWeeklyReport(worker(b), runAt)]);
  expect(results.sort()).toEqual(['posted', 'taken']);
  expect(posted).toEqual(['C0REPORTS']);
  // The next week is its own run.
  expect(await runWeeklyReport(worker(b), runAt + 7 * 86_400_000)).toBe('posted');
});
