/**
 * Issue 22 end to end: with STEP_UP_ABOVE=USDC=10000 a 20,000 USDC transfer cannot be approved
 * from Slack alone (signed requests through the harness), and can with a passkey in a real
 * headless Chromium with a virtual authenticator. Every refusal leaves the request unapproved.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolLink } from '../../src/app/passkey-enrol.js';
import type { StepUpAttempt, StepUpDeps } from '../../src/app/step-up-deps.js';
import { verifyApproval } from '../../src/app/verify-approval.js';
import { createWebHandler } from '../../src/web/handler.js';
import { blocksText, eventually, expectHealthyRun, type Harness, PEOPLE, startHarness } from '../support/harness.js';
import {
  type Approver,
  approverBrowser,
  openLink,
  type PagesServer,
  pressAndRead,
  startPagesServer,
} from '../support/passkey-browser.js';
import {
  click,
  ephemeralText,
  postRequest,
  quiescent,
  RECEIVER,
  serviceCalls,
  waitForState,
} from '../support/requests.js';
import { launchChromium } from '../workbench/support.js';

let h: Harness;
let pages: PagesServer;
let browser: Browser;
let deps: StepUpDeps;
/** Moves the pages' clock (expiry, cool-down) without touching Slack's. */
const shiftMs = 0;
const attempts: StepUpAttempt[] = [];
const approvers: Approver[] = [];

beforeAll(async () => {
  pages = await startPagesServer();
  h = await startHarness('step-up', { STEP_UP_ABOVE: 'USDC=10000', PUBLIC_URL: pages.publicUrl });
  deps = { ...h.rampart.deps, now: () => Date.now() + shiftMs, onAttempt: (a) => attempts.push(a) };
  pages.mount(createWebHandler(deps));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  for (const a of approvers) expect(a.errors).toEqual([]);
  await browser?.close();
  expectHealthyRun(h);
  await h.close();
  await pages.close();
});

const big = (note: string) => postRequest(h, 'transfer', `20000 base:usdc to ${RECEIVER} from ops for ${note}`);

/** The link in the newest private "Approve with your passkey" answer to `user`. */
async function offeredLink(user: string, id: string): Promise<string> {
  return eventually(
    () => {
      const offer = h.fake
        .ephemerals(user)
        .filter((e) => e.text?.includes(id))
        .at(-1);
      return /"url":"([^"]+)"/.exec(blocksText(offer))?.[1];
    },
    10_000,
    'the passkey link',
  );
}

async function enrolBootstrap(user: string): Promise<Approver> {
  const a = await approverBrowser(browser);
  approvers.push(a);
  const link = await enrolLink(deps, user, true);
  if (link.kind !== 'link') throw new Error('bootstrap refused');
  expect(await openLink(a, link.url)).toContain(user);
  expect(await pressAndRead(a)).toContain('can approve payments now');
  return a;
}

describe('passkey step-up', () => {
  let approver1: Approver;

  it('a 20,000 USDC transfer cannot be approved from Slack alone', async () => {
    const { id } = await big('slack only');
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(() => ephemeralText(h, PEOPLE.approver1).includes('you have none'), 10_000, 'enrol hint');
    await quiescent(h);
    const record = await h.rampart.deps.store.get(id);
    expect(record?.state).toBe('pending');
    expect(record?.votes).toEqual([]);
    expect(serviceCalls(h, '/transfer')).toHaveLength(0);
  });

  it('enrols a passkey from the bootstrap link and approves with it in Chromium', async () => {
    approver1 = await enrolBootstrap(PEOPLE.approver1);
    const { id } = await big('with passkey');
    await click(h, PEOPLE.approver1, id, 'request_approve');
    const url = await offeredLink(PEOPLE.approver1, id);
    expect(url).toMatch(new RegExp(`^${pages.publicUrl}/step-up#[A-Za-z0-9_-]{43}$`));
    const shown = await openLink(approver1, url);
    expect(shown).toContain(id);
    expect(shown).toContain('20,000.00');
    // The token left the address bar as soon as the page read it.
    expect(approver1.page.url()).toBe(`${pages.publicUrl}/step-up`);
    expect(await pressAndRead(approver1)).toContain('Approved with your passkey');
    const done = await waitForState(h, id, 'succeeded');
    expect(done.votes.map((v) => [v.user, v.passkey?.challenge.approvalId])).toEqual([[PEOPLE.approver1, id]]);
    await eventually(() =>
      blocksText(h.fake.messages('C0APPROVALS').find((m) => blocksText(m).includes(id))).includes('with passkey'),
    );
    const verified = await verifyApproval(deps, id);
    expect(verified).toMatchObject({ kind: 'checked', ok: true, stepUp: true });
    expect(attempts.some((a) => a.requestId === id && a.outcome === 'vote:approved')).toBe(true);
  });
});
