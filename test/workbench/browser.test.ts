/**
 * In a real browser: a person uses the workbench page the way they would use Slack,
 * and Rampart does its whole job behind it (signed requests, the fake Slack, the sandbox).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchChromium, RECEIVER, startTestWorkbench, type TestWorkbench } from './support.js';

const JOURNEY_MS = 90_000;

let wb: TestWorkbench;
let browser: Browser;
/** Script errors in the page: any one fails the file. */
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  wb = await startTestWorkbench('browser');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
  if (wb) {
    expect(wb.fake.problems).toEqual([]);
    await wb.close();
  }
});

async function openAs(user: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(wb.url);
  await page.getByLabel('You are').selectOption(user);
  return page;
}

const channel = (page: Page, id: string) => page.locator(`.nav-item[data-channel="${id}"]`);

async function typeCommand(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  await composer.fill(text);
  await composer.press('Enter');
}

describe('the workbench in Chromium', () => {
  it(
    'runs a transfer from the slash command to the explorer link in the thread, as people would',
    async () => {
      const page = await openAs('U0REQUESTER');
      await channel(page, 'C0GENERAL').click();
      await typeCommand(page, `/transfer 25 base:usdc to ${RECEIVER} from ops for invoice 7`);

      const modal = page.getByRole('dialog', { name: 'New transfer' });
      await modal.waitFor();
      // The command text pre-filled the form; the person keeps it and submits.
      expect(await modal.locator('[data-block-id="amount"] input').inputValue()).toBe('25');
      expect(await modal.locator('[data-block-id="receiver"] input').inputValue()).toBe(RECEIVER);
      expect(await modal.locator('[data-block-id="wallet"] select').inputValue()).toBe('ops');
      await modal.locator('[data-block-id="reason"] textarea').fill('invoice 7');
      await modal.getByRole('button', { name: 'Request approval' }).click();
      await modal.waitFor({ state: 'detached' });

      await channel(page, 'C0APPROVALS').click();
      const pending = page.locator('#messages article.msg', { hasText: 'Waiting for approval' });
      await pending.waitFor({ timeout: 15_000 });
      const id = /R-\d+/.exec((await pending.locator('.bk-header').textContent()) ?? '')?.[0];
      expect(id).toBeDefined();
      const card = page.locator('#messages article.msg', { hasText: `${id}` });
      expect(await card.textContent()).toContain('25.00');
      await card.screenshot({ path: `${ARTIFACTS}/workbench-card-pending.png` });

      await page.getByLabel('You are').selectOption('U0APPROVER1');
      // The card's buttons are labelled for screen readers with the request.
      await card.getByRole('button', { name: new RegExp(`^Approve ${id}: 25\\.00 USDC`) }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Approve this request?' });
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain('Yours is approval 1 of 1: it runs now and cannot be undone.');
      await confirm.getByRole('button', { name: 'Approve', exact: true }).click();

      await card.locator('.replies').waitFor({ timeout: 20_000 });
      await card.locator('.replies').click();
      // In the reply, not in the parent card the thread pane also shows.
      const link = page.locator('#thread-messages .thread-divider ~ article a[href*="basescan.org/tx/"]');
      await link.waitFor({ timeout: 20_000 });
      expect(await link.getAttribute('href')).toMatch(/^https:\/\/basescan\.org\/tx\/0x[0-9a-f]+$/i);
      await card.filter({ hasText: 'Succeeded' }).waitFor({ timeout: 20_000 });
      expect(await card.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
      await card.screenshot({ path: `${ARTIFACTS}/workbench-card-succeeded.png` });

      const transfers = wb.rampart.sandbox?.state.received.filter((r) => r.path === '/transfer') ?? [];
      expect(transfers.map((r) => r.body)).toEqual([
        { wallet_id: 'wal_ops_7f3a', amount: 25, receiver: RECEIVER, asset: 'base:usdc' },
      ]);
      await page.close();
    },
    JOURNEY_MS,
  );

  it(
    'shows the error for a bad receiver address under the receiver field, and keeps what was typed',
    async () => {
      const page = await openAs('U0REQUESTER');
      await channel(page, 'C0GENERAL').click();
      await typeCommand(page, '/transfer 5 base:usdc to 0x1234 from ops for invoice 8');
      const modal = page.getByRole('dialog', { name: 'New transfer' });
      await modal.waitFor();
      await modal.getByRole('button', { name: 'Request approval' }).click();

      const receiverError = modal.locator('[data-block-id="receiver"] [data-error-for="receiver"]');
      await receiverError.waitFor();
      expect(((await receiverError.textContent()) ?? '').length).toBeGreaterThan(5);
      await modal.screenshot({ path: `${ARTIFACTS}/workbench-receiver-error.png` });
      expect(await modal.locator('[data-error-for]:not([hidden])').count()).toBe(1);
      expect(await modal.locator('[data-block-id="amount"] input').inputValue()).toBe('5');

      // Corrected in place, the same form goes through.
      await modal.locator('[data-block-id="receiver"] input').fill(RECEIVER);
      await modal.getByRole('button', { name: 'Request approval' }).click();
      await modal.waitFor({ state: 'detached' });
      await page.close();
    },
    JOURNEY_MS,
  );

  it(
    'shows an ephemeral answer only to the person who asked, and shares it in the channel',
    async () => {
      const page = await openAs('U0OUTSIDER');
      await channel(page, 'C0GENERAL').click();
      await typeCommand(page, '/rate');
      const answer = page.locator('#messages article.msg.ephemeral', { hasText: '1 USDC ≈' });
      await answer.waitFor({ timeout: 15_000 });
      expect(await answer.textContent()).toContain('Only visible to you');

      await page.getByLabel('You are').selectOption('U0REQUESTER');
      await answer.waitFor({ state: 'detached' });

      await page.getByLabel('You are').selectOption('U0OUTSIDER');
      await answer.getByRole('button', { name: 'Share in channel' }).click();
      const shared = page.locator('#messages article.msg:not(.ephemeral)', { hasText: 'Shared by @olu' });
      await shared.waitFor({ timeout: 15_000 });
      await page.getByLabel('You are').selectOption('U0REQUESTER');
      await shared.waitFor();
      await page.close();
    },
    JOURNEY_MS,
  );

  it(
    'denies a request with a reason typed in the modal the Deny button opened, refusing a too-short one first',
    async () => {
      const page = await openAs('U0REQUESTER');
      await channel(page, 'C0GENERAL').click();
      await typeCommand(page, `/transfer 3 base:usdc to ${RECEIVER} from ops for invoice 9`);
      const request = page.getByRole('dialog', { name: 'New transfer' });
      await request.getByRole('button', { name: 'Request approval' }).click();
      await request.waitFor({ state: 'detached' });

      await channel(page, 'C0APPROVALS').click();
      const card = page.locator('#messages article.msg', { hasText: 'invoice 9' });
      await card.waitFor({ timeout: 15_000 });
      await page.getByLabel('You are').selectOption('U0APPROVER2');
      await card.getByRole('button', { name: /^Deny R-\d+:/ }).click();
      const deny = page.getByRole('dialog', { name: /^Deny R-\d+$/ });
      await deny.waitFor();
      // Empty, the page itself refuses it (Slack checks required fields); too short, Rampart does.
      await deny.getByRole('button', { name: 'Deny', exact: true }).click();
      await deny.locator('[data-error-for="reason"]').filter({ hasText: 'required field' }).waitFor();
      await deny.locator('[data-block-id="reason"] textarea').fill('no');
      await deny.getByRole('button', { name: 'Deny', exact: true }).click();
      await deny.locator('[data-error-for="reason"]').filter({ hasText: 'Give a reason' }).waitFor();
      await deny.locator('[data-block-id="reason"] textarea').fill('Wrong invoice number');
      await deny.getByRole('button', { name: 'Deny', exact: true }).click();
      await deny.waitFor({ state: 'detached' });

      await card.filter({ hasText: 'Denied by @ayo' }).waitFor({ timeout: 15_000 });
      expect(await card.textContent()).toContain('Wrong invoice number');
      await page.close();
    },
    JOURNEY_MS,
  );

  it(
    'answers /lookup in its own form: the submission updates the modal, then the result replaces it',
    async () => {
      const page = await openAs('U0REQUESTER');
      await channel(page, 'C0GENERAL').click();
      await typeCommand(page, '/lookup');
      const modal = page.getByRole('dialog', { name: 'Bank account lookup' });
      await modal.waitFor();
      await modal.locator('[data-block-id="bank_code"] input').fill('058');
      await modal.locator('[data-block-id="account_number"] input').fill('0123456789');
      await modal.getByRole('button', { name: 'Look up' }).click();
      await modal.filter({ hasText: 'ADAEZE OKAFOR' }).waitFor({ timeout: 15_000 });
      expect(await modal.textContent()).not.toContain('0123456789');
      await modal.getByRole('button', { name: 'Done' }).click();
      await modal.waitFor({ state: 'detached' });
      await page.close();
    },
    JOURNEY_MS,
  );

  it(
    'opens the App Home tab for the person playing',
    async () => {
      const page = await openAs('U0APPROVER1');
      await page.getByRole('button', { name: /^Rampart/ }).click();
      await page.locator('#home:not([hidden])').waitFor();
      await page.locator('#home [data-surface="view"], #home .empty').first().waitFor({ timeout: 15_000 });
      await page.screenshot({ path: `${ARTIFACTS}/workbench-home.png` });
      await page.close();
    },
    JOURNEY_MS,
  );
});
