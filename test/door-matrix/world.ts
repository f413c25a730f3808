/**
 * What the matrix's cells drive: harnesses (the rules' settings; a per-person open cap of one;
 * the time rows' delay; DESTINATIONS=book), an HTTP API on loopback over each, and the steps a
 * person or a client takes at each door.
 */
import { type Api, newKey, transfer } from '../api/support.js';
import { addresses, transfersCsv } from '../support/batches.js';
import { APPROVALS, blocksText, cardFor, eventually, type Harness, lastView, PEOPLE } from '../support/harness.js';
import { RECEIVER, submitRequest } from '../support/requests.js';
import { apiCode, codeOfText, modalCode, nextEphemeral } from './readers.js';

export interface World {
  main: Harness;
  caps: Harness;
  api: Api;
  capsApi: Api;
  /** TIME_ENV's harness and its API (the time rows). */
  time: Harness;
  timeApi: Api;
  /** BOOK_ENV's harness and its API (the address book's own row). */
  book: Harness;
  bookApi: Api;
}

/** The rules' settings: each cell's setup breaks exactly one of them. */
export const MAIN_ENV = {
  TWO_APPROVALS_ABOVE: 'USDC=10000',
  STEP_UP_ABOVE: 'USDC=20000,USDT=20000',
  PUBLIC_URL: 'http://127.0.0.1:9/',
  VELOCITY_LIMITS: 'treasury:USDC=5000/24h',
  BATCH_MAX_ROWS: '3',
  // The main harness's cells leave requests open; the caps harness holds the open-cap rows.
  MAX_OPEN_PER_REQUESTER: '200',
};
/** The address book's row: transfers go only to entries (and own wallets). */
export const BOOK_ENV = { DESTINATIONS: 'book' };
/** The time rows: above 1,000 USDC an approval waits an hour before it may start. */
export const TIME_ENV = { DELAY: '1h', DELAY_ABOVE: 'USDC=1000' };
export const CAPS_ENV = {
  MAX_OPEN_PER_REQUESTER: '1',
  STEP_UP_NEW_DESTINATION: 'on',
  PUBLIC_URL: 'http://127.0.0.1:9/',
};

/** Amounts that break one rule each under MAIN_ENV (ops and treasury hold enough). */
export const AMOUNT = { small: 5, twoApprovals: 15_000, stepUp: 25_000, overVelocity: 6_000, delayed: 5_000 } as const;

let seq = 0;
/** A distinct reason per request, so no request repeats another (repeats only warn; kept apart anyway). */
export const note = (what: string) => `matrix ${what} ${++seq}`;

/** Slack's two transfer doors take the same facts: who asks, from which wallet, what and to whom. */
type SlackDoor = (
  h: Harness,
  user: string,
  wallet: string,
  asset: string,
  amount: number,
  receiver?: string,
) => Promise<ReturnType<typeof modalCode>>;

/** The Slack modal: wallet and asset from the command, amount, receiver and reason typed in the form. */
export const viaModal: SlackDoor = async (h, user, wallet, asset, amount, receiver = RECEIVER) => {
  const form = { amount: String(amount), receiver, reason: note('modal') };
  return modalCode((await submitRequest(h, 'transfer', `${asset} from ${wallet}`, form, user)).body);
};

/** The slash command's prefill: everything typed after /transfer, the form sent as it opened. */
export const viaPrefill: SlackDoor = async (h, user, wallet, asset, amount, receiver = RECEIVER) => {
  const typed = `${amount} ${asset} to ${receiver} from ${wallet} for ${note('prefill')}`;
  return modalCode((await submitRequest(h, 'transfer', typed, {}, user)).body);
};

export async function viaApiTransfer(api: Api, body: Record<string, unknown>, token?: string) {
  const t = token ?? (await newKey(api, { limits: { allowNewDestinations: true } })).token;
  return apiCode(
    await api.call('POST', '/transfers', {
      token: t,
      idempotencyKey: `matrix-${++seq}`,
      body: transfer({ reason: note('api'), ...body }),
    }),
  );
}

export async function viaApiBatch(api: Api, over: Record<string, unknown>, token?: string, rows = 2, amount = '1') {
  const t = token ?? (await newKey(api, { limits: { allowNewDestinations: true } })).token;
  const body = {
    kind: 'transfers',
    wallet: 'ops',
    asset: 'base:usdc',
    rows: addresses(rows, ++seq).map((receiver, i) => ({ receiver, amount, reference: `INV-${i + 1}` })),
    reason: note('api batch'),
    ...over,
  };
  return apiCode(await api.call('POST', '/batches', { token: t, idempotencyKey: `matrix-${++seq}`, body }));
}

/** /batch with a file; answers the form's refusal code, or `accepted`. */
export async function viaBatchFile(
  h: Harness,
  user: string,
  o: { wallet?: string; asset?: string; rows?: number; amount?: number; amounts?: number[]; receivers?: string[] },
) {
  const opened = h.fake.callsTo('views.open').length;
  await h.driver.command(user, '/batch', '');
  await h.fake.waitFor((calls) => calls.filter((c) => c.method === 'views.open').length > opened);
  const view = lastView(h.fake, user);
  if (view?.callback_id !== 'batch_modal') throw new Error('no batch modal opened');
  const told = h.fake.ephemerals(user).length;
  const shown = cards(h);
  const rows = o.receivers?.length ?? o.rows ?? 2;
  const csv = transfersCsv(
    o.receivers ?? addresses(rows, ++seq),
    Array.from({ length: rows }, (_, i) => o.amounts?.[i] ?? o.amount ?? 1),
  );
  const file = h.fake.pickFile(user, 'payouts.csv', new TextEncoder().encode(csv));
  const r = await h.driver.submitView(user, view, {
    kind: 'transfers',
    wallet: o.wallet ?? 'ops',
    asset: o.asset ?? 'base:usdc',
    file,
    reason: note('batch'),
  });
  const code = modalCode(r.body);
  if (code !== 'accepted') {
    h.fake.closeView(user, view.id);
    return code;
  }
  // The create runs after the form closes: its refusal comes as a private message, else a card.
  return eventually(
    () =>
      h.fake
        .ephemerals(user)
        .slice(told)
        .map((e) => codeOfText(e.text ?? ''))
        .find((c) => !c.startsWith('unread')) ?? (newCard(h, shown) ? 'accepted' : undefined),
    10_000,
    'the batch card or its refusal',
  );
}

const idOf = (m: { text?: string; blocks?: unknown[] }) => /[RBS]-\d+/.exec(blocksText(m))?.[0];
const newCard = (h: Harness, seen: ReadonlySet<string>) =>
  h.fake
    .messages(APPROVALS)
    .map(idOf)
    .find((id) => id !== undefined && !seen.has(id));

/** The ids on the cards in the approvals channel now. */
export const cards = (h: Harness): ReadonlySet<string> =>
  new Set(h.fake.messages(APPROVALS).flatMap((m) => idOf(m) ?? []));

/** The id of a card that was not among `seen`, once it is up. */
export const newestCardId = (h: Harness, seen: ReadonlySet<string>): Promise<string> =>
  eventually(() => newCard(h, seen), 10_000, 'a new card');

/** A click on `id`'s card button (value = the id, as the card carries it), answered privately. */
export async function clickCard(h: Harness, user: string, id: string, action: string, value: string = id) {
  const before = h.fake.ephemerals(user).length;
  // The handlers read what to act on from the button's value; any message in the channel carries it.
  const message = cardFor(h.fake, id) ?? h.fake.messages(APPROVALS).at(-1);
  if (!message) throw new Error('no message to click in the approvals channel');
  await h.driver.click(user, { action_id: action, block_id: 'matrix', message, channel: APPROVALS, value });
  return nextEphemeral(h, user, before);
}

/** A door driven for real: the code its reader read back. */
export type Driver = (w: World) => Promise<string>;

/** A request sealed by `submit` above STEP_UP_ABOVE: its first Slack Approve is answered with the passkey offer. */
export const approvedFromSlack =
  (submit: (w: World) => Promise<string>): Driver =>
  async (w) => {
    const before = cards(w.main);
    const submitted = await submit(w);
    if (submitted !== 'accepted') return `not submitted: ${submitted}`;
    return clickCard(w.main, PEOPLE.approver1, await newestCardId(w.main, before), 'request_approve');
  };

/** Runs `work` while the main harness is frozen (set as /freeze sets it), then lifts the freeze. */
export async function frozenWhile(w: World, work: () => Promise<string>): Promise<string> {
  const controls = w.main.rampart.deps.controls;
  await controls.setFreeze({ by: PEOPLE.approver1, at: Date.now(), reason: 'door matrix' });
  try {
    return await work();
  } finally {
    await w.main.rampart.redis.del(controls.freezeKey);
  }
}

export { PEOPLE };
