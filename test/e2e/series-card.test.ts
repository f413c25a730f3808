import { describe, expect, it } from 'vitest';
import { type SealedSchedule, sealSchedule } from '../../src/domain/schedule.js';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import { click, currentCard, quiescent, serviceCalls, threadOf, waitForState } from '../support/requests.js';
import { postSealedSeries } from '../support/series.js';
import { useHarness } from '../support/use-harness.js';

const YEAR_MS = 400 * 86_400_000;

describe('a series card', () => {
  const h = useHarness('series-card');

  /** A series of `amount` per run as a submission seals it, announced, its card posted; its id. */
  const postSeries = (amount: number, schedule: SealedSchedule) => postSealedSeries(h, amount, schedule, 'payroll');

  /** A monthly series of 12 runs of `amount` on the 1st at 09:00 Lagos, from 2026-12-01, on its card. */
  async function postedSeries(amount: number): Promise<string> {
    const sealed = sealSchedule(
      { every: { unit: 'month', day: 1 }, at: '09:00', zone: 'Africa/Lagos', ends: { after: 12 }, from: '2026-12-01' },
      { minIntervalMs: 60_000, maxRuns: 60, maxAheadMs: YEAR_MS },
      Date.parse('2026-11-28T12:00:00Z'),
    );
    if (!sealed.ok) throw new Error(sealed.message);
    return postSeries(amount, sealed.schedule);
  }

  it('says what the series pays and when, and Approve through Slack makes it live', async () => {
    const id = await postedSeries(1200);
    expect(id).toMatch(/^S-\d+$/);
    const text = blocksText(currentCard(h, id));
    expect(text).toContain('Monthly on the 1st at 09:00 Africa/Lagos, 12 runs, 1,200.00 USDC each to ');
    expect(text).toContain('14,400.00 in all; first run 2026-12-01');
    const approve = await click(h, PEOPLE.approver1, id, 'request_approve');
    expect(approve.status).toBe(200);
    const live = await waitForState(h, id, 'approved');
    expect(live.approvalState).toBe('live');
    await eventually(() => blocksText(currentCard(h, id)).includes('Live: each run is created at its time'), 10_000);
    // Nothing was created or sent: the first run is on 2026-12-01.
    expect(serviceCalls(h, '/transfer')).toHaveLength(0);
  });

  it('skips a run its wallet cannot cover, saying why in the series’ thread, and sends nothing', async () => {
    const holding = h.sandbox.state.balances.get('wal_ops_7f3a')?.get('base:usdc');
    if (!holding) throw new Error('the sandbox wallet holds no base:usdc');
    const before = { balance: holding.balance, available: holding.available };
    const start = Date.now() + 1_000;
    const runs = [start, start + 1_000];
    const id = await postSeries(9.01, {
      every: { unit: 'minutes', n: 1 },
      at: undefined,
      zone: 'UTC',
      ends: { after: 2 },
      runs,
    });
    try {
      // Spent elsewhere after the approval's check: 9.00 left, each run needs 9.01.
      holding.balance -= holding.available - 9_000_000n;
      holding.available = 9_000_000n;
      await click(h, PEOPLE.approver1, id, 'request_approve');
      const skips = await eventually(
        () => {
          const replies = threadOf(h, id).filter((m) => m.text.includes('was skipped'));
          return replies.length === 2 ? replies : undefined;
        },
        20_000,
        'two skipped runs in the thread',
      );
      expect(skips[0]?.text).toBe(
        "Run 1 was skipped: wallet ops has 9.00 USDC available, less than the run's 9.01 USDC; nothing was sent for this run.",
      );
      expect(skips[1]?.text).toContain('Run 2 was skipped: wallet ops has 9.00 USDC available');
      await quiescent(h);
      expect(serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === 9.01)).toHaveLength(
        0,
      );
    } finally {
      holding.balance = before.balance;
      holding.available = before.available;
    }
  });

  it('Deny through Slack closes a series with the reason', async () => {
    const id = await postedSeries(300);
    await click(h, PEOPLE.approver1, id, 'request_deny');
    const modal = await eventually(
      () => h.fake.views(PEOPLE.approver1).find((v) => v.callback_id === 'deny_modal'),
      5_000,
      'deny modal',
    );
    await h.driver.submitView(PEOPLE.approver1, modal, { reason: 'wrong vendor' });
    await waitForState(h, id, 'denied');
    const reply = await eventually(() => threadOf(h, id).find((m) => m.text.includes('denied')), 10_000, 'deny reply');
    expect(reply.text).toContain('wrong vendor');
    await eventually(() => !blocksText(currentCard(h, id)).includes('request_approve'), 10_000, 'buttons removed');
  });
});
