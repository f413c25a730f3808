/**
 * The workbench shows the whole passkey flow, in Chromium with a virtual
 * authenticator: enrol from the CLI's bootstrap link, request above STEP_UP_ABOVE, click Approve
 * in the workbench, follow "Approve with your passkey" (a link button: a new tab on the
 * workbench's own /rampart pages), approve with the passkey, and see the card say so.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Approver, AUTHENTICATOR, approverBrowser, openLink, pressAndRead } from '../support/passkey-browser.js';
import { enrolLinkFromCli, launchChromium, RECEIVER, startTestWorkbench, type TestWorkbench } from './support.js';

const APPROVER = 'U0APPROVER1';
let wb: TestWorkbench;
let browser: Browser;
const devices: Approver[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  wb = await startTestWorkbench('step-up', { STEP_UP_ABOVE: 'USDC=10000' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const d of devices) expect(d.errors).toEqual([]);
  if (wb) {
    expect(wb.fake.problems).toEqual([]);
    await wb.close();
  }
});

/** The same passkey in a new tab: CDP's virtual authenticators belong to one tab each. */
async function carryPasskey(from: Approver, to: Page): Promise<void> {
  const { credentials } = await from.cdp.send('WebAuthn.getCredentials', { authenticatorId: from.authenticatorId });
  const cdp = await to.context().newCDPSession(to);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: AUTHENTICATOR });
  for (const credential of credentials) await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
}

describe('passkey step-up in the workbench', () => {
  it('enrols from the CLI link, then approves a 20,000 USDC transfer with the passkey from the card', async () => {
    const publicUrl = wb.config.stepUp.publicUrl ?? '';
    expect(publicUrl).toMatch(/^http:\/\/localhost:\d+\/rampart$/);
    const device = await approverBrowser(browser);
    devices.push(device);

    // Bootstrap from the server, exactly as an operator would run it against this workbench.
    expect(await openLink(device, await enrolLinkFromCli(wb, APPROVER))).toContain(APPROVER);
    expect(await pressAndRead(device)).toContain('can approve payments now');

    // The workbench in the same browser profile as the passkey.
    const page = await device.page.context().newPage();
    page.on('pageerror', (err) => device.errors.push(err.message));
    await page.goto(wb.url);
    await page.getByLabel('You are').selectOption('U0REQUESTER');
    await page.locator('.nav-item[data-channel="C0GENERAL"]').click();
    const composer = page.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill(`/transfer 20000 base:usdc to ${RECEIVER} from ops for passkey demo`);
    await composer.press('Enter');
    const modal = page.getByRole('dialog', { name: 'New transfer' });
    await modal.locator('[data-block-id="reason"] textarea').fill('passkey demo');
    await modal.getByRole('button', { name: 'Request approval' }).click();
    await modal.waitFor({ state: 'detached' });

    await page.locator('.nav-item[data-channel="C0APPROVALS"]').click();
    const card = page.locator('#messages article.msg:not(.ephemeral)', { hasText: 'passkey demo' });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('20,000.00');
    const id = /R-\d+/.exec((await card.textContent()) ?? '')?.[0] ?? '';
    expect(id).not.toBe('');

    await page.getByLabel('You are').selectOption(APPROVER);
    await card.getByRole('button', { name: new RegExp(`^Approve ${id}`) }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Approve', exact: true }).click();

    // The click counts nothing: a private message offers the passkey page.
    const offer = page.locator('#messages article.msg.ephemeral', { hasText: id });
    const button = offer.getByRole('button', { name: /Approve R-\d+ with your passkey/ });
    await button.waitFor({ timeout: 15_000 });
    expect((await wb.rampart.deps.store.get(id))?.votes).toEqual([]);

    // A link button opens its page in a new tab, as Slack does.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), button.click()]);
    tab.on('pageerror', (err) => device.errors.push(err.message));
    await carryPasskey(device, tab);
    const approverTab: Approver = { ...device, page: tab };
    await tab.locator('#main', { hasNotText: 'Checking your link' }).locator('#go').waitFor();
    expect(tab.url()).toBe(`${publicUrl}/step-up`);
    expect(await tab.locator('#main').textContent()).toContain('20,000.00');
    expect(await pressAndRead(approverTab)).toContain('Approved with your passkey');

    // The final card still says whose vote carried a passkey.
    await card.filter({ hasText: 'Succeeded' }).waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toMatch(/Approved by: @\w+ with passkey/);
    const record = await wb.rampart.deps.store.get(id);
    expect(record?.votes.map((v) => [v.user, v.passkey?.challengeVersion, v.passkey?.challenge])).toEqual([
      [APPROVER, 2, expect.objectContaining({ purpose: 'approve', subject: id })],
    ]);
  }, 90_000);
});
