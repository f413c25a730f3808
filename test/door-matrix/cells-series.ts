/**
 * A series' decision doors, Skip one run and End, driven from `rampart schedules skip|end` (in
 * process, as on a server) and from the Slack buttons (a signed click, the private answer read) on a live series of the main harness: someone who may not (the
 * requester skipping, an outsider ending), and a series another approver ended a moment before.
 * The series is sealed and voted live through the store (its runs are a day away, so nothing
 * runs while the cells do).
 */
import { SERIES_ACTIONS, skipRunValue } from '../../src/adapters/slack/blocks/series-actions.js';
import type { RuleId } from '../../src/domain/rules/index.js';
import { cli } from '../cli/support.js';
import { type Harness, PEOPLE, REDIS_URL } from '../support/harness.js';
import { storedLiveSeries } from '../support/series.js';
import { cliCode } from './readers.js';
import type { DecisionDoor } from './table.js';
import type { Driver } from './world.js';
import { clickCard } from './world.js';

const _DAY = 86_400_000;

/** A live series of three daily runs from tomorrow, asked by the requester, approved by approver1. */
const liveSeries = (h: Harness) =>
  storedLiveSeries(
    h.rampart.deps.store,
    {
      kind: 'transfer',
      body: {
        wallet_id: 'wal_ops_7f3a',
        amount: 5,
        receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
        asset: 'base:usdc',
      },
    },
    { requester: PEOPLE.requester, reason: 'matrix series' },
    PEOPLE.approver1,
  );

const schedules = (h: Harness, args: string[]) =>
  cli(['schedules', ...args], {
    NODE_ENV: 'test',
    REDIS_URL,
    REDIS_PREFIX: h.prefix,
    APPROVERS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
  }).then(cliCode);

/** Ended by approver2 a moment before (the end's own script). */
async function endedSeries(h: Harness): Promise<string> {
  const id = await liveSeries(h);
  if ((await h.rampart.deps.series.end(id, PEOPLE.approver2)).outcome !== 'ended') throw new Error('not ended');
  return id;
}

/** Skip run 2 as the buttons do (the card, the notice, /schedules, App Home share one handler). */
const skipClick = (h: Harness, id: string, user: string) =>
  clickCard(h, user, id, SERIES_ACTIONS.skipRun, skipRunValue(id, 2));
const endClick = (h: Harness, id: string, user: string) => clickCard(h, user, id, SERIES_ACTIONS.end, id);

export const SERIES_DRIVERS: Partial<Record<RuleId, Partial<Record<DecisionDoor, Driver>>>> = {
  series_who: {
    // The requester is no approver: a skip is the approvers'.
    'series-skip': async (w) => schedules(w.main, ['skip', await liveSeries(w.main), '2', '--as', PEOPLE.requester]),
    'series-end': async (w) => schedules(w.main, ['end', await liveSeries(w.main), '--as', PEOPLE.outsider]),
    'slack-series-skip': async (w) => skipClick(w.main, await liveSeries(w.main), PEOPLE.requester),
    'slack-series-end': async (w) => endClick(w.main, await liveSeries(w.main), PEOPLE.outsider),
  },
  series_state: {
    'series-skip': async (w) => schedules(w.main, ['skip', await endedSeries(w.main), '2', '--as', PEOPLE.approver1]),
    'series-end': async (w) => schedules(w.main, ['end', await endedSeries(w.main), '--as', PEOPLE.approver1]),
    'slack-series-skip': async (w) => skipClick(w.main, await endedSeries(w.main), PEOPLE.approver1),
    'slack-series-end': async (w) => endClick(w.main, await endedSeries(w.main), PEOPLE.approver1),
  },
};
