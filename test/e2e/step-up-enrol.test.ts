/**
 * Passkey enrolment and removal end to end, in real headless Chromium with virtual
 * authenticators: /passkey's link enrols a PENDING passkey (owner DM, approval card); a Slack
 * click on the card activates nothing; another approver's passkey on the page does, and then
 * only after the cool-down; a Slack session removes nothing; another passkey of the same person
 * removes one (owner DM).
 */
import { describe, expect, it } from 'vitest';
import { enrolLink } from '../../src/app/passkey-enrol.js';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import { type Approver, openLink, pressAndRead, useStepUpHarness } from '../support/passkey-browser.js';
import { quiescent } from '../support/requests.js';

const APPROVALS = 'C0APPROVALS';
const DAY = 86_400_000;
/** Moves Rampart's clock (cool-downs) for Slack and the pages alike. */
let shiftMs = 0;

const { h, browsers } = useStepUpHarness(
  'step-up-enrol',
  { STEP_UP_ABOVE: 'USDC=10000' },
  { setup: { rampart: { infra: { clock: () => Date.now() + shiftMs } } } },
);

const device = (): Promise<Approver> => browsers.open();

/** The url of the newest private answer to `user` that carries a link button. */
async function linkFor(user: string, since: number): Promise<string> {
  return eventually(
    () => {
      const e = h.fake.ephemerals(user).slice(since).reverse();
      for (const m of e) {
        const url = /"url":"([^"]+)"/.exec(JSON.stringify(m.blocks ?? []))?.[1];
        if (url) return url;
      }
      return undefined;
    },
    10_000,
    `a link for ${user}`,
  );
}

async function sentence(user: string, since: number, words: string): Promise<string> {
  return eventually(
    () =>
      h.fake
        .ephemerals(user)
        .slice(since)
        .find((m) => m.text?.includes(words))?.text,
    10_000,
    `"${words}" to ${user}`,
  );
}

/** /passkey as `user`: the enrol link (its list comes with it). */
async function slashPasskey(user: string): Promise<string> {
  const since = h.fake.ephemerals(user).length;
  await h.driver.command(user, '/passkey', '');
  return linkFor(user, since);
}

const passkeyCard = (owner: string) =>
  h.fake
    .messages(APPROVALS)
    .filter((m) => blocksText(m).includes(`New passkey for <@${owner}>`))
    .at(-1);

async function clickCard(user: string, owner: string): Promise<number> {
  const card = await eventually(() => passkeyCard(owner), 10_000, 'the passkey card');
  const since = h.fake.ephemerals(user).length;
  await h.driver.click(user, { action_id: 'passkey_approve', message: card, channel: APPROVALS });
  return since;
}

async function clickRemove(user: string, n: number): Promise<number> {
  const since = h.fake.ephemerals(user).length;
  await h.driver.command(user, '/passkey', '');
  const list = await eventually(
    () =>
      h.fake
        .ephemerals(user)
        .slice(since)
        .find((m) => JSON.stringify(m.blocks ?? []).includes('passkey_remove')),
    10_000,
    'the passkey list',
  );
  const after = h.fake.ephemerals(user).length;
  await h.driver.click(user, { action_id: `passkey_remove_${n}`, message: list, channel: APPROVALS });
  return after;
}

const dms = (user: string) =>
  h.fake
    .messages(user)
    .map((m) => m.text ?? '')
    .join('\n');

describe('passkey enrolment and removal', () => {
  let a1: Approver;
  let a2: Approver;

  it('/passkey refuses someone who is not an approver, in one sentence', async () => {
    const since = h.fake.ephemerals(PEOPLE.outsider).length;
    await h.driver.command(PEOPLE.outsider, '/passkey', '');
    expect(await sentence(PEOPLE.outsider, since, 'Only approvers')).toMatch(/^Only approvers register passkeys/);
  });

  it('a /passkey enrolment waits for approval: owner DM and a card that says whom to confirm with', async () => {
    a1 = await device();
    const boot = await enrolLink(h.rampart.deps, PEOPLE.approver1, true);
    if (boot.kind !== 'link') throw new Error('bootstrap refused');
    await openLink(a1, boot.url);
    expect(await pressAndRead(a1)).toContain('can approve payments now');
    await eventually(() => dms(PEOPLE.approver1).includes('added for you from the server'), 10_000, 'bootstrap DM');

    a2 = await device();
    await openLink(a2, await slashPasskey(PEOPLE.approver2));
    expect(await pressAndRead(a2)).toContain('waits for another approver');
    const card = await eventually(() => passkeyCard(PEOPLE.approver2), 10_000, 'the passkey card');
    const text = blocksText(card);
    expect(text).toContain(`Confirm with <@${PEOPLE.approver2}> by voice or in person`);
    expect(text).toContain('unknown authenticator'); // the virtual authenticator's AAGUID is all zeros
    expect(text).toContain('HeadlessChrome');
    await eventually(() => dms(PEOPLE.approver2).includes('waits for another approver'), 10_000, 'requested DM');
    const [p] = await h.rampart.deps.passkeys.list(PEOPLE.approver2);
    expect(p?.status).toBe('pending');
  });

  it('an enrolment approved without a passkey does not count: the card click only gives a link', async () => {
    // The owner cannot approve their own.
    let since = await clickCard(PEOPLE.approver2, PEOPLE.approver2);
    await sentence(PEOPLE.approver2, since, 'cannot approve your own passkey');
    since = await clickCard(PEOPLE.approver1, PEOPLE.approver2);
    await linkFor(PEOPLE.approver1, since);
    await quiescent(h);
    const [p] = await h.rampart.deps.passkeys.list(PEOPLE.approver2);
    expect([p?.status, p?.approvedBy]).toEqual(['pending', undefined]);
  });

  it("another approver's passkey on the page approves it; it counts only after the cool-down", async () => {
    const since = await clickCard(PEOPLE.approver1, PEOPLE.approver2);
    const shown = await openLink(a1, await linkFor(PEOPLE.approver1, since));
    expect(shown).toContain(`Confirm with ${PEOPLE.approver2} by voice or in person`);
    expect(shown).toContain('unknown authenticator');
    expect(await pressAndRead(a1)).toContain('counts for payments from');
    const [p] = await h.rampart.deps.passkeys.list(PEOPLE.approver2);
    expect(p).toMatchObject({ status: 'active', approvedBy: PEOPLE.approver1 });
    expect(p?.usableFrom).toBeGreaterThan(h.rampart.deps.now() + DAY - 60_000);
    expect(await h.rampart.deps.passkeys.usable(PEOPLE.approver2, h.rampart.deps.now())).toEqual([]);
    await eventually(() => dms(PEOPLE.approver2).includes(`approved by <@${PEOPLE.approver1}>`), 10_000, 'added DM');
    // The card is redrawn with the decision and who made it, and offers no button any more.
    const card = await eventually(
      () => {
        const c = passkeyCard(PEOPLE.approver2);
        return blocksText(c).includes('*Approved*') ? c : undefined;
      },
      10_000,
      'the redrawn passkey card',
    );
    expect(blocksText(card)).toContain(`by <@${PEOPLE.approver1}> with their own passkey`);
    expect(JSON.stringify(card?.blocks)).not.toContain('passkey_approve');
  });

  it('a Slack session removes nothing: without another passkey Remove only says how', async () => {
    const since = await clickRemove(PEOPLE.approver1, 1);
    await sentence(PEOPLE.approver1, since, 'needs another passkey of yours');
    await quiescent(h);
    expect(await h.rampart.deps.passkeys.list(PEOPLE.approver1)).toHaveLength(1);
  });

  it('another usable passkey of the same person removes one, and the owner hears of it', async () => {
    shiftMs = DAY + 60_000; // approver2's passkey is out of its cool-down
    // approver1 enrols a second device, approved by approver2's passkey.
    const second = await device();
    await openLink(second, await slashPasskey(PEOPLE.approver1));
    expect(await pressAndRead(second)).toContain('waits for another approver');
    const since = await clickCard(PEOPLE.approver2, PEOPLE.approver1);
    await openLink(a2, await linkFor(PEOPLE.approver2, since));
    expect(await pressAndRead(a2)).toContain('counts for payments from');
    shiftMs = 2 * DAY + 120_000; // and the second device out of its own
    const [, other] = await h.rampart.deps.passkeys.list(PEOPLE.approver1);
    // The Remove click alone removes nothing: it gives a link.
    const at = await clickRemove(PEOPLE.approver1, 1);
    const url = await linkFor(PEOPLE.approver1, at);
    expect(await h.rampart.deps.passkeys.list(PEOPLE.approver1)).toHaveLength(2);
    // The passkey being removed cannot sign its own removal.
    await openLink(a1, url);
    expect(await pressAndRead(a1)).toContain('did not give a passkey');
    const again = await clickRemove(PEOPLE.approver1, 1);
    await openLink(second, await linkFor(PEOPLE.approver1, again));
    expect(await pressAndRead(second)).toContain('Removed');
    expect((await h.rampart.deps.passkeys.list(PEOPLE.approver1)).map((p) => p.id)).toEqual([other?.id]);
    await eventually(
      () => dms(PEOPLE.approver1).includes('removed with another of your passkeys'),
      10_000,
      'removed DM',
    );
  });
});
