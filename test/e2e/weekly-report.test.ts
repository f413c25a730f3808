/**
 * REPORT_CHANNEL + REPORT_AT post the report once a week, whatever the number of
 * workers — two Rampart processes on one queue, with a clock injected a moment before the run,
 * post one report (with its CSV in the thread), and next week's run is queued.
 */
import { beforeAll, expect, it } from 'vitest';
import { nextWeeklyRun, parseWeeklyAt, type WeeklyAt } from '../../src/domain/weekly-schedule.js';
import { blocksText, eventually, GENERAL } from '../support/harness.js';
import { quiescent } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const REPORT_AT = 'mon 09:00 Europe/London';
const at = parseWeeklyAt(REPORT_AT) as WeeklyAt;
const runAt = nextWeeklyRun(at, Date.now());
const offset = runAt - 1_500 - Date.now();
const clock = () => Date.now() + offset;
const h = useHarness(
  'weekly-report',
  { REPORT_CHANNEL: GENERAL, REPORT_AT },
  {
    rampart: { infra: { clock } },
    // The report is scheduled, not asked for: Slack sends Rampart nothing, so there are no acks to check.
    healthy: false,
  },
);
beforeAll(async () => {
  await h.startAnother({ ROLE: 'worker' });
});

const reports = () => h.fake.messages(GENERAL).filter((m) => blocksText(m).includes('Treasury report, last 7 days'));

it('posts the weekly report once across two workers and queues next week’s', async () => {
  const posted = await eventually(() => reports()[0], 15_000, 'the weekly report');
  await eventually(() => h.fake.thread(GENERAL, posted.ts).find((m) => (m.files?.length ?? 0) >= 1), 15_000, 'its CSV');
  const { Queue } = await import('bullmq');
  const queue = new Queue('report', { connection: h.rampart.redis, prefix: `${h.prefix}:bull` });
  try {
    const next = nextWeeklyRun(at, runAt);
    await eventually(
      async () => ((await queue.getJob(`weekly-report-${next}`)) ? true : undefined),
      10_000,
      'next week',
    );
    await eventually(async () => {
      const c = await queue.getJobCounts('active', 'waiting');
      return (c.active ?? 0) + (c.waiting ?? 0) === 0 ? true : undefined;
    });
    await quiescent(h);
    expect(reports()).toHaveLength(1);
    expect(await queue.getDelayed()).toHaveLength(1);
  } finally {
    await queue.close();
  }
});
