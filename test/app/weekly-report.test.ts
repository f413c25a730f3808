/**
 * The weekly report's run is claimed on Redis, so two workers running the same week's
 * job (BullMQ re-running it, or a job re-added after removal) post it once; a post Slack refused
 * (the fake Slack rate-limiting it once) gives its claim back so the retry posts it — once; a post
 * with no answer (it may have reached Slack) keeps the claim and is not posted again.
 */
import { WebClient } from '@slack/web-api';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startFakeSlack } from '../../devkit/index.js';
import { slackReportPoster } from '../../src/adapters/slack/report-send.js';
import { slackClientOptions } from '../../src/adapters/slack/web-api/client-options.js';
import { type ReportPoster, runWeeklyReport, WeeklyReportNotPosted } from '../../src/app/weekly-report.js';
import { parseWeeklyAt, type WeeklyAt } from '../../src/domain/weekly-schedule.js';
import { createLogger } from '../../src/log.js';
import { ReportMarks } from '../../src/store/report-marks.js';
import { RequestStore } from '../../src/store/requests.js';
import { LogSink } from '../support/log-sink.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis: a, prefix, another } = useRedisPrefix('weekly');
const b = another();
const at = parseWeeklyAt('mon 09:00 Africa/Lagos') as WeeklyAt;
const WEEK = 7 * 86_400_000;

const worker = (redis: Redis, poster: ReportPoster, log = createLogger({ level: 'silent' }, new LogSink())) => {
  const marks = new ReportMarks(redis, prefix);
  return {
    at,
    channel: 'C0REPORTS',
    rules: [],
    store: new RequestStore(redis, prefix),
    poster,
    claim: (runAt: number) => marks.claimWeekly(runAt),
    release: (runAt: number) => marks.releaseWeekly(runAt),
    now: () => Date.UTC(2026, 10, 23, 8, 0),
    log,
  };
};

it('posts a week’s report once when two workers run the same week', async () => {
  const posted: string[] = [];
  const poster: ReportPoster = {
    postReport: async (channel) => {
      posted.push(channel);
      return { ts: '1.1' };
    },
    attachFiles: async () => {},
  };
  const runAt = Date.UTC(2026, 10, 23, 8, 0);
  const results = await Promise.all([
    runWeeklyReport(worker(a, poster), runAt),
    runWeeklyReport(worker(b, poster), runAt),
  ]);
  expect(results.sort()).toEqual(['posted', 'taken']);
  expect(posted).toEqual(['C0REPORTS']);
  // The next week is its own run.
  expect(await runWeeklyReport(worker(b, poster), runAt + WEEK)).toBe('posted');
});

describe('a weekly post that fails after its week is claimed', () => {
  const runAt = Date.UTC(2026, 10, 23, 8, 0) + 10 * WEEK;
  const reports = (fake: Awaited<ReturnType<typeof startFakeSlack>>) =>
    fake.messages('C0REPORTS').filter((m) => JSON.stringify(m).includes('Treasury report'));

  it('is posted by the retry when Slack refused it once, and only once', async () => {
    const fake = await startFakeSlack({ botToken: 'xoxb-weekly', channels: [{ id: 'C0REPORTS', name: 'reports' }] });
    try {
      const client = new WebClient('xoxb-weekly', slackClientOptions(fake.apiUrl));
      const log = createLogger({ level: 'silent' }, new LogSink());
      const poster = slackReportPoster({ client, log });
      fake.rateLimitNext('chat.postMessage', 1);
      await expect(runWeeklyReport(worker(a, poster), runAt)).rejects.toBeInstanceOf(WeeklyReportNotPosted);
      expect(reports(fake)).toHaveLength(0);
      // BullMQ's next attempt (another worker, say) takes the released week and posts it.
      expect(await runWeeklyReport(worker(b, poster), runAt)).toBe('posted');
      expect(await runWeeklyReport(worker(a, poster), runAt)).toBe('taken');
      expect(reports(fake)).toHaveLength(1);
      const [report] = reports(fake);
      expect(fake.thread('C0REPORTS', report?.ts ?? '').some((m) => (m.files?.length ?? 0) >= 1)).toBe(true);
    } finally {
      await fake.close();
    }
  });

  it('is not tried again when the post may have reached Slack', async () => {
    let calls = 0;
    const poster: ReportPoster = {
      postReport: async () => {
        calls += 1;
        throw new Error('socket hang up');
      },
      attachFiles: async () => {},
    };
    const sink = new LogSink();
    expect(await runWeeklyReport(worker(a, poster, createLogger({ level: 'info' }, sink)), runAt + WEEK)).toBe(
      'unsure',
    );
    expect(await runWeeklyReport(worker(b, poster), runAt + WEEK)).toBe('taken');
    expect(calls).toBe(1);
  });
});
