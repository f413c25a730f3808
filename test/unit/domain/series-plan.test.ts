/**
 * What a live series' job does when it wakes (domain/series-plan.ts): after downtime only the
 * latest missed run within SCHEDULE_GRACE runs and each other is skipped with the reason; the
 * notice goes min(SCHEDULE_NOTICE, half the gap) before each run; and the notice's day words.
 */
import { describe, expect, it } from 'vitest';
import { runNoticeMessage } from '../../../src/adapters/slack/blocks/series-notice.js';
import { runDayWords } from '../../../src/domain/schedule-words.js';
import { decodeRunMark, skipMarkOf } from '../../../src/domain/series.js';
import { noticeLeadMs, planSeries } from '../../../src/domain/series-plan.js';
import { runsSkippedText, seriesReplyText } from '../../../src/presenters/series-thread.js';
import { transferOf } from '../../support/factories.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 11, 1, 8);
const daily = [T0, T0 + DAY, T0 + 2 * DAY, T0 + 3 * DAY];
const base = {
  runs: daily,
  marked: new Set<number>(),
  zone: 'UTC',
  graceMs: HOUR,
  noticeMs: DAY,
  frozen: false,
  held: 0,
};

describe('planSeries', () => {
  it('before the first notice wakes at it; at the notice posts it and wakes at the run', () => {
    // A daily series: half the gap is 12 hours, less than the 24-hour notice.
    expect(planSeries({ ...base, now: T0 - 13 * HOUR })).toEqual({
      run: undefined,
      missed: [],
      notice: undefined,
      wakeAt: T0 - 12 * HOUR,
    });
    expect(planSeries({ ...base, now: T0 - 12 * HOUR })).toEqual({ run: undefined, missed: [], notice: 1, wakeAt: T0 });
  });

  it('after three days down runs only the latest missed run within the grace, skipping the others', () => {
    const plan = planSeries({ ...base, now: T0 + 2 * DAY + 10 * 60_000 });
    expect(plan.run).toBe(3);
    expect(plan.missed).toEqual([
      { k: 1, why: 'due at 2026-12-01 08:00 UTC while Rampart was not running; more than SCHEDULE_GRACE (1 hour) ago' },
      { k: 2, why: 'due at 2026-12-02 08:00 UTC while Rampart was not running; more than SCHEDULE_GRACE (1 hour) ago' },
    ]);
    expect(plan).toMatchObject({ notice: undefined, wakeAt: T0 + 2 * DAY + 12 * HOUR });
  });

  it('runs nothing when the latest missed run is older than the grace; a run the freeze held says so', () => {
    const plan = planSeries({ ...base, now: T0 + 2 * HOUR, held: 1 });
    expect(plan.run).toBeUndefined();
    expect(plan.missed).toEqual([
      { k: 1, why: 'due at 2026-12-01 08:00 UTC while payments were frozen; more than SCHEDULE_GRACE (1 hour) ago' },
    ]);
  });

  it('leaves marked runs alone and answers no wake after the last run', () => {
    const marked = new Set([1, 2, 3]);
    expect(planSeries({ ...base, marked, now: T0 + 3 * DAY })).toEqual({
      run: 4,
      missed: [],
      notice: undefined,
      wakeAt: undefined,
    });
  });

  it('gives a series every minute its notice 30 s before each run, and the first run the gap to the second', () => {
    const minutely = [T0, T0 + 60_000, T0 + 120_000];
    expect([1, 2, 3].map((k) => noticeLeadMs(minutely, k, DAY))).toEqual([30_000, 30_000, 30_000]);
    expect(noticeLeadMs([T0, T0 + 30 * DAY], 2, DAY)).toBe(DAY);
  });
});

describe('the notice before a run', () => {
  it('names today, tomorrow or the date in the series zone', () => {
    const now = Date.UTC(2026, 10, 30, 22); // 23:00 in Lagos (UTC+1), 30 November
    expect(runDayWords(Date.UTC(2026, 10, 30, 22, 30), now, 'Africa/Lagos')).toBe('today 23:30');
    expect(runDayWords(Date.UTC(2026, 11, 1, 8), now, 'Africa/Lagos')).toBe('tomorrow 09:00');
    expect(runDayWords(Date.UTC(2026, 11, 2, 8), now, 'UTC')).toBe('on 2026-12-02 08:00');
  });

  it('says the amount and destination with a Skip this run button naming the run', () => {
    const sealed = { id: 'S-1001', call: transferOf(1200), display: { chain: 'base' } };
    const message = runNoticeMessage({ sealed } as never, { k: 3, when: 'tomorrow 09:00' });
    expect(message?.text).toMatch(/^Next run tomorrow 09:00: 1,200(\.00)? USDC to .+ — Skip this run$/);
    expect(JSON.stringify(message?.blocks)).toContain('"action_id":"series_skip_run"');
    expect(JSON.stringify(message?.blocks)).toContain('"value":"S-1001:3"');
  });
});

describe('the reply for skipped runs', () => {
  const late = (k: number, why: string) => ({ k, status: 'skipped' as const, why });
  it('says one run in one sentence, and several in one reply, a line each', () => {
    expect(runsSkippedText([skipMarkOf(2, { by: 'U1' })])).toBe('Run 2 was skipped by U1.');
    expect(runsSkippedText([late(1, 'due at 08:00 UTC; late'), late(2, 'due at 08:01 UTC; late')])).toBe(
      '2 runs were skipped:\n• Run 1 was skipped: due at 08:00 UTC; late.\n• Run 2 was skipped: due at 08:01 UTC; late.',
    );
  });

  it('names the person who skipped from the mark’s fields, as each door writes a person, and escapes the rest', () => {
    const mention = (user: string) => `<@${user}>`;
    const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(runsSkippedText([skipMarkOf(2, { by: 'U0APPROVER2', source: 'from the CLI' })], mention, esc)).toBe(
      'Run 2 was skipped by <@U0APPROVER2> (from the CLI).',
    );
    expect(runsSkippedText([skipMarkOf(3, { by: 'U0A', source: 'from API key <ops>' })], mention, esc)).toBe(
      'Run 3 was skipped by <@U0A> (from API key &lt;ops&gt;).',
    );
    expect(runsSkippedText([late(4, 'over <limit>')], mention, esc)).toBe('Run 4 was skipped: over &lt;limit&gt;.');
  });

  it('says a series ended with the person as a mention, never a bare id, and the run it cancelled', () => {
    const mention = (user: string) => `<@${user}>`;
    const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const ended = (by: string | undefined, detail: string | undefined, cancelled?: { k: string; id: string }) =>
      seriesReplyText({ kind: 'ended', seriesId: 'S-12', by, detail, cancelled }, { name: mention, plain: esc });
    expect(ended('U0APPROVER2', 'from API key <ops>', { k: '4', id: 'R-44' })).toBe(
      'S-12 ended by <@U0APPROVER2> (from API key &lt;ops&gt;); run 4 (R-44) cancelled, nothing sent. No more runs will be created.',
    );
    expect(ended('rampart', 'after its last run')).toBe(
      'S-12 ended (after its last run). No more runs will be created.',
    );
    expect(seriesReplyText({ kind: 'runs-skipped', runs: [skipMarkOf(2, { by: 'U1' })] }, { name: mention })).toBe(
      'Run 2 was skipped by <@U1>.',
    );
  });

  it('reads a mark written before its fields (its text alone) with who skipped it and by which door', () => {
    const old = (why: string) => decodeRunMark(JSON.stringify({ k: 2, status: 'skipped', why }));
    expect(old('skipped by U0APPROVER2 (from the CLI)')).toEqual({
      k: 2,
      status: 'skipped',
      why: 'skipped by U0APPROVER2 (from the CLI)',
      by: 'U0APPROVER2',
      source: 'from the CLI',
    });
    expect(old('skipped by U0APPROVER1')).toMatchObject({ by: 'U0APPROVER1' });
    expect(old('skipped by U0APPROVER1')).not.toHaveProperty('source');
    // Rampart's reason: no person.
    expect(old('due at 08:00 UTC; late')).toEqual({ k: 2, status: 'skipped', why: 'due at 08:00 UTC; late' });
    const mention = (user: string) => `<@${user}>`;
    const mark = old('skipped by U0APPROVER2 (from the CLI)');
    expect(mark?.status === 'skipped' && runsSkippedText([mark], mention)).toBe(
      'Run 2 was skipped by <@U0APPROVER2> (from the CLI).',
    );
    // A new mark round-trips as it is; what is not a mark is left out, not thrown.
    const fresh = skipMarkOf(5, { by: 'U0B', source: 'from the CLI' });
    expect(decodeRunMark(JSON.stringify(fresh))).toEqual(fresh);
    expect(decodeRunMark(JSON.stringify({ k: 1, status: 'created', id: 'R-7' }))).toEqual({
      k: 1,
      status: 'created',
      id: 'R-7',
    });
    for (const bad of ['not json', 'null', '{"k":"1","status":"skipped"}', '{"k":1,"status":"maybe"}'])
      expect(decodeRunMark(bad)).toBeUndefined();
  });
});
