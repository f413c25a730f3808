/**
 * A live series' buttons through signed Slack requests: Skip next run and End series on its card
 * (nothing is sent for a skipped run, nor after the end), the loser of a second click told which
 * happened, `/schedules` listing every series with the same buttons, and App Home's "Coming up"
 * with a Skip for each next run. Counts of service calls after quiescence, never a duration.
 */
import { describe, expect, it } from 'vitest';
import { findElement } from '../../devkit/view-state.js';
import { SERIES_ACTIONS } from '../../src/adapters/slack/blocks/series-actions.js';
import { APPROVALS, blocksText, cardFor, eventually, type Harness, PEOPLE } from '../support/harness.js';
import { click, ephemeralText, quiescent, serviceCalls, waitForState } from '../support/requests.js';
import { postSealedSeries } from '../support/series.js';
import { useHarness } from '../support/use-harness.js';

const callsFor = (h: Harness, amount: number) =>
  serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

/** The series' card once it shows `action` (with `value`, when given). */
const cardWith = (h: Harness, id: string, action: string, value?: string) =>
  eventually(
    () => {
      const card = cardFor(h.fake, id);
      const found = card && findElement(card.blocks ?? [], action);
      return found && (value === undefined || found.element.value === value) ? card : undefined;
    },
    10_000,
    `${id}'s card with ${action}${value ? ` ${value}` : ''}`,
  );

const told = (h: Harness, user: string, words: string) =>
  eventually(() => (ephemeralText(h, user).includes(words) ? true : undefined), 10_000, `"${words}"`);

async function approvedSeries(h: Harness, amount: number, runs: number[]): Promise<string> {
  const id = await postSealedSeries(h, amount, runs);
  await click(h, PEOPLE.approver1, id, 'request_approve');
  await waitForState(h, id, 'approved');
  return id;
}

describe('a live series’ buttons', () => {
  const h = useHarness('series-buttons');

  it('Skip next run sends nothing for that run and the next still runs; End series sends nothing more; a second click is told which happened', async () => {
    // Far enough ahead for the clicks to land first; the assertions are counts, not times.
    const t = Date.now() + 15_000;
    const skipping = await approvedSeries(h, 7.01, [t, t + 1_000, t + 3_600_000]);
    const ending = await approvedSeries(h, 7.02, [t, t + 1_000]);

    const card = await cardWith(h, skipping, SERIES_ACTIONS.skipRun, `${skipping}:1`);
    expect(blocksText(card)).toContain('End series');
    await h.driver.click(PEOPLE.approver2, { action_id: SERIES_ACTIONS.skipRun, message: card, channel: APPROVALS });
    await told(h, PEOPLE.approver2, `Run 1 of ${skipping} skipped; nothing will be sent for it.`);
    // The card is redrawn: its Skip now names run 2.
    await cardWith(h, skipping, SERIES_ACTIONS.skipRun, `${skipping}:2`);
    // The same (old) button again: already skipped, and by whom.
    await h.driver.click(PEOPLE.approver1, { action_id: SERIES_ACTIONS.skipRun, message: card, channel: APPROVALS });
    await told(h, PEOPLE.approver1, `Run 1 was already skipped by <@${PEOPLE.approver2}>.`);
    // The requester may end a series, not skip a run.
    await h.driver.click(PEOPLE.requester, { action_id: SERIES_ACTIONS.skipRun, message: card, channel: APPROVALS });
    await told(h, PEOPLE.requester, 'Only an approver can skip a run');

    const endCard = await cardWith(h, ending, SERIES_ACTIONS.end);
    await h.driver.click(PEOPLE.requester, { action_id: SERIES_ACTIONS.end, message: endCard, channel: APPROVALS });
    await told(h, PEOPLE.requester, `${ending} ended; no more runs will be created.`);
    await h.driver.click(PEOPLE.approver2, { action_id: SERIES_ACTIONS.end, message: endCard, channel: APPROVALS });
    await told(h, PEOPLE.approver2, `${ending} already ended`);
    await eventually(
      () => (findElement(cardFor(h.fake, ending)?.blocks ?? [], SERIES_ACTIONS.end) ? undefined : true),
      10_000,
      'the ended card without buttons',
    );

    // Run 2 of the first series is sent, once, and its card's Skip moves on to run 3.
    await eventually(() => (callsFor(h, 7.01).length === 1 ? true : undefined), 40_000, 'run 2 sent');
    await cardWith(h, skipping, SERIES_ACTIONS.skipRun, `${skipping}:3`);
    // The ended series' jobs for its two run times have run (and made nothing).
    await eventually(
      async () => {
        const jobs = await h.rampart.deps.queues.series.getJobs(['active', 'waiting', 'delayed', 'prioritized']);
        return jobs.some((j) => j.data.seriesId === ending) ? undefined : true;
      },
      20_000,
      'no job left for the ended series',
    );
    await quiescent(h);
    expect(callsFor(h, 7.01)).toHaveLength(1);
    expect(callsFor(h, 7.02)).toHaveLength(0);
    // Ended with its last run sent: that run is told apart.
    const last = await cardWith(h, skipping, SERIES_ACTIONS.end);
    await h.driver.click(PEOPLE.approver1, { action_id: SERIES_ACTIONS.end, message: last, channel: APPROVALS });
    await told(h, PEOPLE.approver1, `${skipping} ended`);
  }, 120_000);

  it('/schedules lists live series first with their buttons, then pending ones; its Skip works there too', async () => {
    const hour = 3_600_000;
    const t = Date.now() + hour;
    const live = await approvedSeries(h, 8.01, [t, t + hour]);
    const pending = await postSealedSeries(h, 8.02, [t, t + hour]);
    const before = h.fake.ephemerals(PEOPLE.approver1).length;
    const ack = await h.driver.command(PEOPLE.approver1, '/schedules', '');
    expect(ack.status).toBe(200);
    const list = await eventually(
      () =>
        h.fake
          .ephemerals(PEOPLE.approver1)
          .slice(before)
          .find((e) => blocksText(e).includes('Series')),
      10_000,
      '/schedules',
    );
    const text = blocksText(list);
    expect(text).toContain(`*${live}* · 8.01 USDC to `);
    expect(text).toContain('next run 1:');
    expect(text).toContain('0 of 2 runs made');
    expect(text.indexOf(`*${live}*`)).toBeLessThan(text.indexOf(`*${pending}*`));
    expect(text).toContain('Waiting for approval');
    expect(findElement(list.blocks ?? [], `${SERIES_ACTIONS.end}:${live}`)).toBeDefined();
    await h.driver.click(PEOPLE.approver1, { action_id: `${SERIES_ACTIONS.skipRun}:${live}:1`, message: list });
    await told(h, PEOPLE.approver1, `Run 1 of ${live} skipped`);
    expect(callsFor(h, 8.01)).toHaveLength(0);
  });

  it('App Home shows the next runs of live series under Coming up, each with Skip; a Skip there redraws it', async () => {
    const hour = 3_600_000;
    const t = Date.now() + 2 * hour;
    const id = await approvedSeries(h, 9.01, [t, t + hour]);
    const before = h.fake.home(PEOPLE.approver1);
    await h.driver.openHome(PEOPLE.approver1);
    const home = await eventually(
      () => {
        const v = h.fake.home(PEOPLE.approver1);
        return v && v !== before && blocksText({ blocks: v.blocks }).includes(`*${id}* run 1`) ? v : undefined;
      },
      10_000,
      'App Home with the series’ next run',
    );
    expect(blocksText({ blocks: home.blocks })).toContain('Coming up in series');
    await h.driver.click(PEOPLE.approver1, { action_id: `${SERIES_ACTIONS.skipRun}:${id}:1`, view: home });
    await told(h, PEOPLE.approver1, `Run 1 of ${id} skipped`);
    await eventually(
      () => {
        const v = h.fake.home(PEOPLE.approver1);
        const t2 = v ? blocksText({ blocks: v.blocks }) : '';
        return t2.includes(`*${id}* run 2`) && !t2.includes(`*${id}* run 1`) ? true : undefined;
      },
      10_000,
      'App Home redrawn without run 1',
    );
  });
});
