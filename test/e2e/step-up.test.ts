/**
 * Passkey step-up end to end: with STEP_UP_ABOVE=USDC=10000 a 20,000 USDC transfer cannot be approved
 * from Slack alone (signed requests through the harness), and can with a passkey in a real
 * headless Chromium with a virtual authenticator. Every refusal leaves the request unapproved.
 */
import { describe, expect, it } from 'vitest';
import { enrolLink } from '../../src/app/passkey-enrol.js';
import type { StepUpAttempt } from '../../src/app/step-up-deps.js';
import { verifyApproval } from '../../src/app/verify-approval.js';
import type { WebDeps } from '../../src/compose/app-deps.js';
import { fullAddress } from '../../src/presenters/address.js';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import {
  type Approver,
  enrolledFromBootstrap,
  expectPlainApproveCountsNothing,
  offeredLink,
  openLink,
  pressAndRead,
  useStepUpHarness,
} from '../support/passkey-browser.js';
import * as flow from '../support/requests.js';

let deps: WebDeps;
/** Moves the pages' clock (expiry, cool-down) without touching Slack's. */
let shiftMs = 0;
const attempts: StepUpAttempt[] = [];

const { pages, h, browsers } = useStepUpHarness(
  'step-up',
  { STEP_UP_ABOVE: 'USDC=10000' },
  {
    web: (harness) => {
      deps = { ...harness.rampart.deps, now: () => Date.now() + shiftMs, onAttempt: (a) => attempts.push(a) };
      return deps;
    },
  },
);

const big = (note: string) =>
  flow.postRequest(h, 'transfer', `20000 base:usdc to ${flow.RECEIVER} from ops for ${note}`);

const passkeyLink = (user: string, id: string) => offeredLink(h, user, id);

const enrolBootstrap = (user: string) => enrolledFromBootstrap(browsers, deps, user);

describe('passkey step-up', () => {
  let approver1: Approver;

  it('a 20,000 USDC transfer cannot be approved from Slack alone', async () => {
    const { id } = await big('slack only');
    await expectPlainApproveCountsNothing(h, PEOPLE.approver1, id);
    expect(flow.serviceCalls(h, '/transfer')).toHaveLength(0);
  });

  it('enrols a passkey from the bootstrap link and approves with it in Chromium', async () => {
    approver1 = await enrolBootstrap(PEOPLE.approver1);
    const { id } = await big('with passkey');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const url = await passkeyLink(PEOPLE.approver1, id);
    expect(url).toMatch(new RegExp(`^${pages.publicUrl}/step-up#[A-Za-z0-9_-]{43}$`));
    // The link works once: its click replaces the private message, which then offers no link.
    const offer = h.fake
      .ephemerals(PEOPLE.approver1)
      .filter((e) => e.text?.includes(id))
      .at(-1);
    if (!offer) throw new Error('no passkey link message');
    await h.driver.click(PEOPLE.approver1, { action_id: 'step_up_open', message: offer, channel: 'C0APPROVALS' });
    const replaced = await eventually(
      () => h.fake.ephemerals(PEOPLE.approver1).find((e) => e.text?.includes(`passkey page for ${id} was opened`)),
      10_000,
      'the replaced link message',
    );
    expect(blocksText(replaced)).not.toContain('/step-up#');
    const shown = await openLink(approver1, url);
    expect(shown).toContain(id);
    expect(shown).toContain('20,000.00');
    // The card's words: its hash label and 10 characters, people by the name Slack shows.
    const card = (await h.rampart.deps.store.get(id))?.sealed;
    expect(shown).toContain(`Sealed request hash ${card?.hash}`);
    expect(shown).toContain(fullAddress(flow.RECEIVER)); // every character, grouped in fours
    expect(shown).toContain('Not what you expected? Deny it on the card.');
    expect(shown).toContain(PEOPLE.requester.toLowerCase());
    expect(shown).not.toContain(PEOPLE.requester);
    // The token left the address bar as soon as the page read it.
    expect(approver1.page.url()).toBe(`${pages.publicUrl}/step-up`);
    expect(await pressAndRead(approver1)).toContain('Approved with your passkey');
    // Once used, the private message says so (through the response URL its click gave).
    const used = await eventually(
      () => h.fake.ephemerals(PEOPLE.approver1).find((e) => e.text?.includes(`Passkey link used: the link for ${id}`)),
      10_000,
      'the link message saying it was used',
    );
    expect(blocksText(used)).not.toContain('/step-up#');
    expect(h.fake.ephemerals(PEOPLE.approver1).some((e) => e.text?.includes(`passkey page for ${id} was opened`))).toBe(
      false,
    );
    const done = await flow.waitForState(h, id, 'succeeded');
    expect(done.votes.map((v) => [v.user, v.passkey?.challengeVersion, v.passkey?.challenge])).toEqual([
      [PEOPLE.approver1, 2, expect.objectContaining({ purpose: 'approve', subject: id })],
    ]);
    await eventually(() =>
      blocksText(h.fake.messages('C0APPROVALS').find((m) => blocksText(m).includes(id))).includes('with passkey'),
    );
    const verified = await verifyApproval(deps, id);
    expect(verified).toMatchObject({ kind: 'checked', ok: true, stepUp: true });
    expect(attempts.some((a) => a.requestId === id && a.outcome === 'vote:approved')).toBe(true);
  });

  it('a batch whose total is above STEP_UP_ABOVE needs the passkey; the page shows its summary and binds its rows', async () => {
    const id = await submitBatchFile(h, transfersCsv(addresses(3, 7), [6000, 5000, 4000]));
    expect((await h.rampart.deps.store.get(id))?.sealed.stepUp).toBe(true);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const shown = await openLink(approver1, await passkeyLink(PEOPLE.approver1, id));
    expect(shown).toContain('Batch of transfers');
    expect(shown).toContain('Rows: 3');
    expect(shown).toContain('File: payouts.csv');
    expect(shown).toContain(`Approval hash ${(await h.rampart.deps.store.get(id))?.sealed.hash}`);
    expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);
    expect(await pressAndRead(approver1)).toContain('Approved with your passkey');
    await waitForApproval(h, id, 'done', 30_000);
    // Every row pays a new address, so Approve asked to confirm the warnings; the
    // vote the passkey page records says both.
    const votes = (await h.rampart.deps.store.history(id)).filter((e) => e.event === 'approval');
    expect(votes.map((e) => e.detail)).toEqual(['with passkey, warnings checked']);
    expect(
      flow.serviceCalls(h, '/transfer').filter((c) => JSON.stringify(c.body).includes('0x')).length,
    ).toBeGreaterThan(0);
    expect(await verifyApproval(deps, id)).toMatchObject({ kind: 'checked', ok: true, stepUp: true });
  });

  it('refuses a replayed assertion, recording nothing more', async () => {
    const { id } = await big('replay');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    let finish: string | undefined;
    approver1.page.on('request', (r) => {
      if (r.url().endsWith('/step-up/finish')) finish = r.postData() ?? undefined;
    });
    await openLink(approver1, await passkeyLink(PEOPLE.approver1, id));
    expect(await pressAndRead(approver1)).toContain('Approved with your passkey');
    await flow.waitForState(h, id, 'succeeded');
    const replay = await fetch(`${pages.publicUrl}/step-up/finish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(pages.publicUrl).origin },
      body: finish ?? '',
    });
    expect(((await replay.json()) as { html: string }).html).toContain('no longer valid');
    expect((await h.rampart.deps.store.get(id))?.votes).toHaveLength(1);
  });

  it("refuses another approver's link: their authenticator cannot answer it, and no vote counts", async () => {
    const { id } = await big('other link');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const other = await browsers.open();
    await openLink(other, await passkeyLink(PEOPLE.approver1, id));
    expect(await pressAndRead(other)).toContain('did not give a passkey');
    await flow.quiescent(h);
    expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);
  });

  it('refuses an expired link', async () => {
    const { id } = await big('expired');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const url = await passkeyLink(PEOPLE.approver1, id);
    shiftMs = 5 * 60_000 + 1_000;
    try {
      const shown = await openLink(approver1, url);
      expect(shown).toContain('no longer valid');
      expect(shown).not.toContain(id);
    } finally {
      shiftMs = 0;
    }
    expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);
  });

  it('refuses when the approval changed underneath the open page', async () => {
    const { id } = await big('changed');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await openLink(approver1, await passkeyLink(PEOPLE.approver1, id));
    await rewriteAmount(id, 19_999);
    expect(await pressAndRead(approver1)).toContain('no longer valid');
    const record = await h.rampart.deps.store.get(id);
    expect([record?.state, record?.votes]).toEqual(['pending', []]);
    const history = await h.rampart.deps.store.history(id);
    expect(history.some((e) => e.event === 'step-up refused' && e.detail === 'changed')).toBe(true);
  });

  it('refuses a bad signature and a failed user verification', async () => {
    const { id } = await big('bad signature');
    const overrides = [{ isBogusSignature: true }, { isBadUV: true }];
    for (const bits of overrides) {
      await flow.click(h, PEOPLE.approver1, id, 'request_approve');
      const url = await passkeyLink(PEOPLE.approver1, id);
      await approver1.cdp.send('WebAuthn.setResponseOverrideBits', {
        authenticatorId: approver1.authenticatorId,
        ...bits,
      });
      try {
        await openLink(approver1, url);
        expect(await pressAndRead(approver1)).toContain('could not be verified');
      } finally {
        await approver1.cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId: approver1.authenticatorId });
      }
    }
    expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);
  });

  it('an enrolment nobody approved does not count, nor a passkey inside its cool-down', async () => {
    const a2 = await browsers.open();
    const link = await enrolLink(deps, PEOPLE.approver2, false);
    if (link.kind !== 'link') throw new Error('no link');
    await openLink(a2, link.url);
    expect(await pressAndRead(a2)).toContain('waits for another approver');
    const { id } = await big('pending passkey');
    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    await eventually(
      () => flow.ephemeralText(h, PEOPLE.approver2).includes('cannot count yet'),
      10_000,
      'pending refusal',
    );
    const [passkey] = await deps.passkeys.list(PEOPLE.approver2);
    expect(passkey?.status).toBe('pending');
    // Approved now, but inside its cool-down.
    await deps.passkeys.activate(PEOPLE.approver2, passkey?.id ?? '', PEOPLE.approver1, Date.now() + 86_400_000);
    const before = h.fake.ephemerals(PEOPLE.approver2).length;
    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    await eventually(() => h.fake.ephemerals(PEOPLE.approver2).length > before, 10_000, 'cool-down refusal');
    expect(h.fake.ephemerals(PEOPLE.approver2).at(-1)?.text).toContain('cannot count yet');
    await flow.quiescent(h);
    expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);
  });

  it('rampart verify fails once the sealed call is changed', async () => {
    const [id] = await h.rampart.deps.store.idsInState('succeeded', 1);
    expect(await verifyApproval(deps, id ?? '')).toMatchObject({ ok: true });
    await rewriteAmount(id ?? '', 20_001);
    const v = await verifyApproval(deps, id ?? '');
    expect(v).toMatchObject({ kind: 'checked', ok: false });
  });

  it('serves the pages with a strict policy and nothing about a request', async () => {
    const page = await fetch(`${pages.publicUrl}/step-up`);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).not.toMatch(/R-\d+/);
    expect((await fetch(`${pages.publicUrl}/assets/webauthn/index.js`)).status).toBe(200);
    expect((await fetch(`${pages.publicUrl}/assets/webauthn/../../package.json`)).status).toBe(404);
    const foreign = await fetch(`${pages.publicUrl}/step-up/begin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{"token":"x"}',
    });
    expect(foreign.status).toBe(403);
  });
});

/** What someone with write access to Redis could do: change the sealed call in place. */
async function rewriteAmount(id: string, amount: number): Promise<void> {
  const key = `${h.prefix}:req:${id}`;
  const sealed = JSON.parse((await h.rampart.redis.hget(key, 'frozen')) ?? '{}') as {
    call: { body: { amount: number } };
  };
  sealed.call.body.amount = amount;
  await h.rampart.redis.hset(key, 'frozen', JSON.stringify(sealed));
}
