/**
 * The passkey page door: the approver's link (offered after Approve), the page's challenge signed
 * by a software authenticator, and the page's answer as the web adapter words it. Driven through
 * the façade the page binds (app.passkeys.beginStepUp / finishStepUp), on the main harness's own
 * stores; the origin and relying party are PUBLIC_URL's, as a browser there would sign them.
 */
import { decidedHtml } from '../../src/adapters/web/outcomes.js';
import { invalidLinkHtml } from '../../src/adapters/web/pages.js';
import { createApp, type RampartApp } from '../../src/app/index.js';
import { slackActor } from '../../src/domain/actor.js';
import { type Harness, PEOPLE } from '../support/harness.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { codeOfText } from './readers.js';
import { AMOUNT, cards, type Driver, frozenWhile, MAIN_ENV, newestCardId, viaPrefill } from './world.js';

const A1 = PEOPLE.approver1;
const A2 = PEOPLE.approver2;
const origin = new URL(MAIN_ENV.PUBLIC_URL).origin;
const keys: Record<string, SoftAuthenticator> = {
  [A1]: new SoftAuthenticator(new URL(origin).hostname, origin),
  [A2]: new SoftAuthenticator(new URL(origin).hostname, origin),
};
const apps = new WeakMap<Harness, RampartApp>();

/** The façade over `h`'s stores, once its approvers hold a passkey that counts now. */
async function appOf(h: Harness): Promise<RampartApp> {
  const known = apps.get(h);
  if (known) return known;
  for (const [user, key] of Object.entries(keys)) await h.rampart.deps.passkeys.add(key.passkeyOf(user), 0);
  const app = createApp(h.rampart.deps);
  apps.set(h, app);
  return app;
}

type Opened = { token: string; challenge: string } | { refused: string };

/** Opens `user`'s link for `id` and reads the challenge the page shows. */
async function open(h: Harness, user: string, id: string): Promise<Opened> {
  const app = await appOf(h);
  const offer = await app.passkeys.offerStepUp(id, slackActor(user), 'approve', false);
  if (offer.kind !== 'link') return { refused: `no link: ${offer.kind}` };
  const token = offer.url.slice(offer.url.indexOf('#') + 1);
  const begun = await app.passkeys.beginStepUp(token, undefined);
  if (begun.kind !== 'ready') return { refused: `page: ${begun.kind}` };
  return { token, challenge: begun.options.challenge };
}

/** Signs the page's challenge and sends it; the page's answer, read as a rule's code. */
async function sign(h: Harness, user: string, opened: Opened): Promise<string> {
  if ('refused' in opened) return opened.refused;
  const body = keys[user]?.assert(Buffer.from(opened.challenge, 'base64url'));
  const f = await (await appOf(h)).passkeys.finishStepUp(opened.token, body, undefined);
  if (f.kind === 'decided') return f.outcome.kind === 'approved' ? 'accepted' : codeOfText(decidedHtml(f.outcome));
  if (f.kind === 'invalid') return codeOfText(invalidLinkHtml());
  return `page: ${f.kind}`;
}

export const onPage = async (h: Harness, user: string, id: string) => sign(h, user, await open(h, user, id));

/** A pending request through the prefill door; its id. */
async function pending(h: Harness, user: string, amount: number, wallet = 'ops', asset = 'base:usdc') {
  const before = cards(h);
  const code = await viaPrefill(h, user, wallet, asset, amount);
  if (code !== 'accepted') throw new Error(`the setup's request was refused: ${code}`);
  return newestCardId(h, before);
}

const R = PEOPLE.requester;

/** Forgets what every wallet counted so far, so a cell starts from its whole daily limit. */
export async function freshVelocityDay(h: Harness): Promise<void> {
  const counted = await h.rampart.redis.keys(`${h.rampart.deps.controls.ledgerPrefix}*`);

  if (counted.length > 0) await h.rampart.redis.del(...counted);
}

export const PAGE: Record<'policy' | 'self' | 'twice' | 'velocity' | 'freeze' | 'decided', Driver> = {
  // Above TWO_APPROVALS_ABOVE: one passkey approval counts and the request waits for another.
  policy: async (w) => onPage(w.main, A1, await pending(w.main, R, AMOUNT.stepUp)),
  self: async (w) => onPage(w.main, A2, await pending(w.main, A2, AMOUNT.stepUp)),
  twice: async (w) => {
    const id = await pending(w.main, R, AMOUNT.stepUp);
    const first = await onPage(w.main, A1, id);
    if (first !== 'quorum_not_reached') return `the first passkey approval was not counted: ${first}`;
    return onPage(w.main, A1, id);
  },
  // treasury may send 5,000 USDC a day: the first 3,000 is approved, the second on the page is over.
  velocity: async (w) => {
    await freshVelocityDay(w.main);
    const first = await pending(w.main, R, 3_000, 'treasury', 'ethereum:usdc');
    const second = await pending(w.main, R, 3_000, 'treasury', 'ethereum:usdc');
    const approved = await onPage(w.main, A1, first);
    if (approved !== 'accepted') return `the first was not approved: ${approved}`;
    return onPage(w.main, A1, second);
  },
  // The link was opened before the freeze; the passkey answers while frozen.
  freeze: async (w) => {
    const id = await pending(w.main, R, AMOUNT.small);
    const opened = await open(w.main, A1, id);
    return frozenWhile(w, () => sign(w.main, A1, opened));
  },
  // Another approver denied it while this one's page was open.
  decided: async (w) => {
    const h = w.main;
    const id = await pending(h, R, AMOUNT.small);
    const opened = await open(h, A1, id);
    await h.rampart.deps.store.decide(id, 'denied', { event: 'denied', by: A2 });
    return sign(h, A1, opened);
  },
};
