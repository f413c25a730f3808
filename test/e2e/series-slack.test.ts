/**
 * A series made in Slack: the /transfer form's repeat fields make a series whose card says what
 * it pays and when, judged on its total; a wrong day, time, zone or end is answered with one
 * sentence at the field it was typed in, and nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { localDateText } from '../../src/domain/schedule-words.js';
import { APPROVALS, blocksText } from '../support/harness.js';
import { currentCard, postRequest, RECEIVER, submitRequest } from '../support/requests.js';
import { postSeries } from '../support/series.js';
import { useHarness } from '../support/use-harness.js';

const ZONE = 'Africa/Lagos';
const DAY = 86_400_000;

describe('the transfer form, When: repeat', () => {
  const h = useHarness('series-slack', {
    SCHEDULE_ZONE: ZONE,
    SCHEDULE_MAX_AHEAD: '400d',
    TWO_APPROVALS_ABOVE: 'USDC=100',
  });

  it('makes a series from the repeat fields: its card says the cadence, runs, amount each, total and first run', async () => {
    // Three days ahead in Lagos, so the first run is that date whatever the hour now.
    const from = localDateText(Date.now() + 3 * DAY, ZONE);
    const { id } = await postSeries(h, 25, {
      when: from,
      repeat: 'weeks',
      repeat_every: '2',
      repeat_at: `09:00 ${ZONE}`,
      repeat_ends: 'after 3 runs',
    });
    const text = blocksText(currentCard(h, id));
    expect(text).toContain(`Every 2 weeks at 09:00 ${ZONE}, 3 runs, 25.00 USDC each to `);
    expect(text).toContain(`75.00 in all; first run ${from}`);
    const record = await h.rampart.deps.store.get(id);
    expect(record?.shape).toBe('series');
    expect(record?.sealed.schedule?.runs).toHaveLength(3);
    // Nothing runs before its approval.
    expect(record?.state).toBe('pending');
  });

  it('reads a time without a zone in the team’s zone, and a last date as the end', async () => {
    const from = localDateText(Date.now() + 2 * DAY, ZONE);
    const until = localDateText(Date.now() + 5 * DAY, ZONE);
    const { id } = await postSeries(h, 10, {
      when: from,
      repeat: 'days',
      repeat_at: '07:30',
      repeat_ends: until,
    });
    expect(blocksText(currentCard(h, id))).toContain(`Every day at 07:30 ${ZONE}, 4 runs, 10.00 USDC each to `);
  });

  it('answers a wrong day, time, zone or end at its own field, and stores nothing', async () => {
    const before = h.fake.messages(APPROVALS).length;
    const cases: [Record<string, string>, string, string][] = [
      [{ repeat: 'month', repeat_every: '32', repeat_ends: '12' }, 'repeat_every', 'The day of the month'],
      [{ repeat: 'month', repeat_every: '1', repeat_at: '25:00', repeat_ends: '12' }, 'repeat_at', 'HH:MM'],
      [
        { repeat: 'weeks', repeat_at: '09:00 Mars/Olympus', repeat_ends: '4' },
        'repeat_at',
        '"Mars/Olympus" is not a time zone',
      ],
      [{ repeat: 'weeks', repeat_ends: 'soon' }, 'repeat_ends', 'a number of runs'],
      [{ repeat: 'days', repeat_ends: '1000' }, 'repeat_ends', 'SCHEDULE_MAX_RUNS'],
      [{ repeat: 'days', repeat_ends: '3', when: '2020-01-01' }, 'when', 'has passed'],
      [{ repeat_ends: '3' }, 'repeat', 'Choose how often it repeats'],
    ];
    for (const [values, field, words] of cases) {
      const r = await submitRequest(h, 'transfer', `5 base:usdc to ${RECEIVER} from ops for rent`, values);
      const body = r.body as { response_action?: string; errors?: Record<string, string> };
      expect(body.response_action, JSON.stringify(values)).toBe('errors');
      expect(Object.keys(body.errors ?? {}), JSON.stringify(values)).toEqual([field]);
      expect(body.errors?.[field]).toContain(words);
    }
    expect(h.fake.messages(APPROVALS)).toHaveLength(before);
  });

  it('refuses "entire balance" for a series, on the amount field', async () => {
    const r = await submitRequest(h, 'transfer', `base:usdc to ${RECEIVER} from ops for all of it`, {
      entire: ['entire'],
      repeat: 'weeks',
      repeat_ends: '3',
    });
    expect(r.body).toMatchObject({
      response_action: 'errors',
      errors: { amount: expect.stringContaining('exact amount each run') },
    });
  });

  it('judges a series on its total: three runs of 40 need the two approvals above 100, one run alone would not', async () => {
    // When "now" with a repeat: from today.
    const { id } = await postSeries(h, 40, { repeat: 'weeks', repeat_ends: '3', when: 'now' });
    expect((await h.rampart.deps.store.get(id))?.sealed.requiredApprovals).toBe(2);
    expect(blocksText(currentCard(h, id))).toContain('*Approvals:* 0 of 2');
    const single = await postRequest(h, 'transfer', `40 base:usdc to ${RECEIVER} from ops for one payment`);
    expect((await h.rampart.deps.store.get(single.id))?.sealed.requiredApprovals).toBe(1);
  });
});
