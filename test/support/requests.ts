/** Steps of the request journey, as a person would take them through the driver. */
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { StoredMessage } from '../../devkit/index.js';
import { APPROVALS, blocksText, cardFor, eventually, type Harness, PEOPLE, REDIS_URL } from './harness.js';

export const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
export const SOLANA_RECEIVER = '7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r';

/** Opens the modal with `/kind text`, submits it with `values`, and returns the ack body. */
export async function submitRequest(
  h: Harness,
  kind: 'transfer' | 'offramp',
  text: string,
  values: Record<string, string | string[]> = {},
  user: string = PEOPLE.requester,
) {
  const seen = new Set(h.fake.views(user).map((v) => v.id));
  const ack = await h.driver.command(user, `/${kind}`, text);
  expect(ack.status).toBe(200);
  const view = await eventually(() => h.fake.views(user).find((v) => !seen.has(v.id)), 10_000, `${kind} modal`);
  const submitted = await h.driver.submitView(user, view, values);
  // The person gives up on a refused form, as they would in Slack.
  if ((submitted.body as { response_action?: string }).response_action === 'errors') h.fake.closeView(user, view.id);
  return submitted;
}

/** A request all the way to its card; returns the request id and the card. */
export async function postRequest(...args: Parameters<typeof submitRequest>) {
  const h = args[0];
  const before = h.fake.messages(APPROVALS).length;
  const submit = await submitRequest(...args);
  expect(submit.body, JSON.stringify(submit.body)).toMatchObject({ response_action: 'clear' });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'approval card');
  const id = /R-\d+/.exec(blocksText(card))?.[0];
  if (!id) throw new Error('card without a request id');
  return { id, card };
}

/** A transfer of `amount` base:usdc from ops to RECEIVER for `reason`, by `user`, all the way to its card. */
export const postTransfer = (h: Harness, amount: number, reason: string, user: string = PEOPLE.requester) =>
  postRequest(h, 'transfer', `${amount} base:usdc to ${RECEIVER} from ops for ${reason}`, {}, user);

export function currentCard(h: Harness, id: string): StoredMessage {
  const card = cardFor(h.fake, id);
  if (!card) throw new Error(`no card for ${id}`);
  return card;
}

export const click = (
  h: Harness,
  user: string,
  id: string,
  action: 'request_approve' | 'request_deny' | 'request_cancel',
) =>
  h.driver.click(user, {
    action_id: action,
    message: currentCard(h, id),
    channel: APPROVALS,
    // Cancel is the card's overflow menu: the pick is the request id.
    ...(action === 'request_cancel' ? { value: id } : {}),
  });

/** Presses Deny on `id`'s card as `user` and returns the reason form it opens. */
export async function openDeny(h: Harness, user: string, id: string) {
  await click(h, user, id, 'request_deny');
  return eventually(() => h.fake.views(user).find((v) => v.callback_id === 'deny_modal'), 5000, 'deny modal');
}

/** Waits until the stored record's `field` reads `state` (or one of them); returns the record. */
export const waitForRecord = (
  h: Harness,
  id: string,
  field: 'state' | 'approvalState',
  state: string | readonly string[],
  timeoutMs: number,
) => {
  const states: readonly string[] = typeof state === 'string' ? [state] : state;
  return eventually(
    async () => {
      const r = await h.rampart.deps.store.get(id);
      return r && states.includes(r[field]) ? r : undefined;
    },
    timeoutMs,
    `${id} to be ${states.join(' or ')}`,
  );
};

export const waitForState = (h: Harness, id: string, state: string, timeoutMs = 15_000) =>
  waitForRecord(h, id, 'state', state, timeoutMs);

export const threadOf = (h: Harness, id: string) => h.fake.thread(APPROVALS, currentCard(h, id).ts);

/** Waits for a reply in the card's thread that contains `text`; `what` names it if none comes. */
export const threadReply = (h: Harness, id: string, text: string, timeoutMs: number, what: string) =>
  eventually(() => threadOf(h, id).find((m) => m.text.includes(text)), timeoutMs, what);

export const serviceCalls = (h: Harness, path: '/transfer' | '/offramp' | '/beneficiary') =>
  h.sandbox.state.received.filter((r) => r.path === path);

/**
 * Every private reply a user got, as one text (chat.postEphemeral). Not just the latest: the
 * requester's own confirmation can land after a click's reply.
 */
export const ephemeralText = (h: Harness, user: string) =>
  h.fake
    .ephemerals(user)
    .map((e) => e.text)
    .join('\n');

const BUSY = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'] as const;

/** What is still running or queued that could act: empty when idle (expiries due later do not count). */
async function busy(h: Harness): Promise<string[]> {
  const { execute, notifications, expire } = h.rampart.deps.queues;
  const out: string[] = [];
  for (const q of [execute, notifications]) {
    const counts = await q.getJobCounts(...BUSY);
    for (const [state, n] of Object.entries(counts)) if (n > 0) out.push(`${q.name}: ${n} ${state}`);
  }
  // Expiry jobs wait 24 h by design; only a due one counts as work in flight.
  const expiring = await expire.getJobCounts('active', 'waiting', 'prioritized');
  for (const [state, n] of Object.entries(expiring)) if (n > 0) out.push(`expire: ${n} ${state}`);
  for (const id of await h.rampart.deps.store.openIds()) {
    if ((await h.rampart.deps.store.get(id))?.state === 'executing') out.push(`${id} executing`);
  }
  return out;
}

const traces = (h: Harness) => `${h.fake.calls.length}/${h.sandbox.state.received.length}`;

/**
 * Waits until Rampart has nothing left to do (STYLE "Tests": prove absence by quiescence, not a
 * fixed sleep): the queues hold no live job, no request is executing, and neither Slack nor the
 * service saw a new call between two consecutive idle checks.
 */
export async function quiescent(h: Harness, timeoutMs = 15_000): Promise<void> {
  let last = '';
  let still: string[] = [];
  await eventually(
    async () => {
      const now = traces(h);
      still = await busy(h);
      const settled = still.length === 0 && now === last;
      last = now;
      return settled ? true : undefined;
    },
    timeoutMs,
    'Rampart to be idle',
  ).catch((err: unknown) => {
    throw new Error(
      `${err instanceof Error ? err.message : String(err)} (still busy: ${still.join(', ') || 'new calls'})`,
    );
  });
}

/** The `callbackId` view `user` has open that is not among `seen` (ids of the views open before), once it is up. */
export const newView = (h: Harness, user: string, callbackId: string, seen: Set<string>, timeoutMs = 3000) =>
  eventually(
    () => h.fake.views(user).find((v) => v.callback_id === callbackId && !seen.has(v.id)),
    timeoutMs,
    callbackId,
  );

/**
 * Types `command text` as `user` and returns the modal it opened, read as Slack shows it after
 * each update: `until(test, what)` waits for the text of its blocks to pass `test`.
 */
export async function openModal(h: Harness, user: string, command: string, text = '') {
  const seen = new Set(h.fake.views(user).map((v) => v.id));
  await h.driver.command(user, command, text);
  const opened = await eventually(() => h.fake.views(user).find((v) => !seen.has(v.id)), 10_000, `${command} modal`);
  const until = (test: (text: string) => boolean, what: string) =>
    eventually(
      () => {
        const v = h.fake.views(user).find((x) => x.id === opened.id);
        return v && test(blocksText(v)) ? v : undefined;
      },
      10_000,
      what,
    );
  return { opened, until };
}

/** The cross-border form's BankAddress fields for a London branch. */
export const LONDON_BRANCH = {
  addr_house_no: '12',
  addr_street: 'High Street',
  addr_city: 'London',
  addr_state: 'London',
  addr_postal_code: 'E1 6AN',
  addr_country: 'GB',
};

/** `/beneficiary new`, then the switch to the cross-border form; returns that form once it opens. */
export async function openCrossBorderForm(h: Harness, user: string) {
  const seen = new Set(h.fake.views(user).map((v) => v.id));
  const fresh = (callbackId: string) => h.fake.views(user).find((v) => v.callback_id === callbackId && !seen.has(v.id));
  await h.driver.command(user, '/beneficiary', 'new');
  const ng = await eventually(() => fresh('beneficiary_ng'), 10_000, 'beneficiary form');
  await h.driver.click(user, { action_id: 'beneficiary_switch', view: ng });
  return eventually(() => fresh('beneficiary_xb'), 3000, 'cross-border form');
}

/** The newest Unfreeze Rampart card in the approvals channel, if one is up. */
export const unfreezeCard = (h: Harness) =>
  h.fake
    .messages(APPROVALS)
    .filter((m) => m.text === 'Unfreeze Rampart')
    .at(-1);

/** Waits for `user`'s private notices to say `text`. */
export const noticeSaying = (h: Harness, user: string, text: string, what: string) =>
  eventually(() => ephemeralText(h, user).includes(text), 10_000, what);

/** The wake list (store/lua/vote.lua pushes, a worker's wake runner pops): what no runner took yet. */
export async function wakes(h: Harness, drop = false): Promise<string[]> {
  const redis = new Redis(REDIS_URL);
  try {
    const key = h.rampart.deps.store.keys.wake;
    const left = await redis.lrange(key, 0, -1);
    if (drop) await redis.del(key);
    return left;
  } finally {
    redis.disconnect();
  }
}

/** One more wake for `id`, as a second vote script's push would be. */
export async function pushWake(h: Harness, id: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    await redis.lpush(h.rampart.deps.store.keys.wake, id);
  } finally {
    redis.disconnect();
  }
}

/** `id` settled "outcome unknown", and its thread says so and never to request it again. */
export async function expectUnknownSaid(h: Harness, id: string, timeoutMs = 10_000): Promise<void> {
  await waitForState(h, id, 'unknown', timeoutMs);
  const reply = await eventually(
    () => threadOf(h, id).find((m) => m.text.includes('outcome unknown')),
    10_000,
    'the unknown reply',
  );
  expect(reply.text).toContain('Do not request it again');
}
