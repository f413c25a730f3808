/**
 * The series doors' cells: POST /transfers with a `schedule` (recurring payouts) and the Slack
 * /transfer form's repeat fields, each breaking one rule as the API transfer's or the modal's
 * cell does (the API with a key that has schedules:create, so only that rule refuses). Every
 * amount rule judges the series' total (3 runs here); velocity judges one run.
 */
import type { ApiKeyLimits, ApiScope } from '../../src/domain/api-key.js';
import type { RuleId } from '../../src/domain/rules/index.js';
import { type Api, newKey } from '../api/support.js';
import { type Harness, PEOPLE } from '../support/harness.js';
import { RECEIVER, submitRequest } from '../support/requests.js';
import { outside, removed } from './cells-book.js';
import { modalCode } from './readers.js';
import { listedWhile } from './screening-list.js';
import { AMOUNT, approvedFromSlack, type Driver, frozenWhile, note, viaApiTransfer, type World } from './world.js';

/** Three monthly runs: the card and every amount rule see three times the amount. */
const SCHEDULE = { every: 'month', day: 1, at: '09:00', zone: 'UTC', runs: 3 };
const SCOPES = ['requests:create', 'requests:read', 'schedules:create'] as const;

/** A key that may create series (and pay new destinations unless `limits` says otherwise). */
const seriesKey = async (api: Api, limits: Partial<ApiKeyLimits> = {}, scopes: readonly ApiScope[] = SCOPES) =>
  (await newKey(api, { scopes: [...scopes], limits: { allowNewDestinations: true, ...limits } })).token;

/** POST /transfers with the schedule; `body` as the API transfer's cells change it. */
export async function viaApiSeries(api: Api, body: Record<string, unknown>, token?: string): Promise<string> {
  return viaApiTransfer(api, { schedule: SCHEDULE, ...body }, token ?? (await seriesKey(api)));
}

/** The same series twice with one key: the first must be taken (it fills the key's --max-open). */
async function secondRefused(api: Api, token: string): Promise<string> {
  const first = await viaApiSeries(api, {}, token);
  if (first !== 'accepted') return `the first series was refused: ${first}`;
  return viaApiSeries(api, {}, token);
}

/** 3 runs of 8,400 USDC: 25,200 in all, above STEP_UP_ABOVE; its first Slack Approve offers the passkey. */
const stepUp = approvedFromSlack((w) => viaApiSeries(w.api, { amount: String(Math.ceil(AMOUNT.stepUp / 3)) }));

/** The /transfer form with its repeat fields: weekly, three runs, from today (the form's When). */
export async function viaSlackSeries(
  h: Harness,
  user: string,
  wallet: string,
  asset: string,
  amount: number,
  receiver: string = RECEIVER,
): Promise<string> {
  const form = {
    amount: String(amount),
    receiver,
    reason: note('slack series'),
    repeat: 'weeks',
    repeat_every: '1',
    repeat_at: '23:59 UTC',
    repeat_ends: '3',
  };
  return modalCode((await submitRequest(h, 'transfer', `${asset} from ${wallet}`, form, user)).body);
}

const R = PEOPLE.requester;
/** Someone with nothing open in the caps harness (each person there holds one cell's place). */
const SERIES_CAPPED = 'U0SERIESCAP';

/** 3 weekly runs of 8,400 USDC from Slack: above STEP_UP_ABOVE, its first Approve offers the passkey. */
const slackStepUp = approvedFromSlack((w) =>
  viaSlackSeries(w.main, R, 'ops', 'base:usdc', Math.ceil(AMOUNT.stepUp / 3)),
);

/** The Slack form's repeat: the rules the /transfer modal answers, on a series. */
export const SLACK_SERIES_SUBMIT: Partial<Record<RuleId, Driver>> = {
  policy: (w) => viaSlackSeries(w.main, R, 'ops', 'ethereum:usdt', AMOUNT.small),
  step_up: slackStepUp,
  velocity: (w) => viaSlackSeries(w.main, R, 'treasury', 'ethereum:usdc', AMOUNT.overVelocity),
  open_caps: async (w) => {
    const first = await viaSlackSeries(w.caps, SERIES_CAPPED, 'ops', 'base:usdc', AMOUNT.small);
    if (first !== 'accepted') return `the first series was refused: ${first}`;
    return viaSlackSeries(w.caps, SERIES_CAPPED, 'ops', 'base:usdc', AMOUNT.small);
  },
  screening: (w) =>
    listedWhile(w.main, [RECEIVER.toLowerCase()], () => viaSlackSeries(w.main, R, 'ops', 'base:usdc', AMOUNT.small)),
  address_book: (w) => viaSlackSeries(w.book, R, 'ops', 'base:usdc', AMOUNT.small, outside()),
  entry_removed: async (w) => viaSlackSeries(w.main, R, 'ops', 'base:usdc', AMOUNT.small, await removed(w)),
};

export const SERIES_SUBMIT: Partial<Record<RuleId, Driver>> = {
  // USDT has no TWO_APPROVALS_ABOVE threshold: the policy cannot judge the series' total.
  policy: (w) => viaApiSeries(w.api, { asset: 'ethereum:usdt', amount: '5' }),
  step_up: stepUp,
  new_destination: async (w) =>
    viaApiSeries(
      w.api,
      { receiver: '0x2222222222222222222222222222222222222222' },
      await seriesKey(w.api, { allowNewDestinations: false }),
    ),
  // treasury may send 5,000 USDC a day: one run of 6,000 cannot fit.
  velocity: (w) =>
    viaApiSeries(w.api, { wallet: 'treasury', asset: 'ethereum:usdc', amount: String(AMOUNT.overVelocity) }),
  open_caps: async (w) => secondRefused(w.api, await seriesKey(w.api, { maxOpen: 1 })),
  key_scopes: async (w) => viaApiSeries(w.api, {}, await seriesKey(w.api, {}, ['requests:create'])),
  key_limits: async (w) => viaApiSeries(w.api, {}, await seriesKey(w.api, { wallets: ['treasury'] })),
  freeze: (w: World) => frozenWhile(w, () => viaApiSeries(w.api, {})),
  screening: (w) => listedWhile(w.main, [RECEIVER], () => viaApiSeries(w.api, { receiver: RECEIVER.toLowerCase() })),
  address_book: (w) => viaApiSeries(w.bookApi, { receiver: outside() }),
  entry_removed: async (w) => viaApiSeries(w.api, { receiver: await removed(w) }),
};
