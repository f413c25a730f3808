/**
 * Issue 23 item 20 and the docs' screenshots: the workbench at desktop width and at a phone's
 * (~400 px, Slack mobile's message width) in Chromium. At 400 px the sidebar hides behind ☰ and
 * a thread takes the whole width (app.css). PNGs go to test-artifacts/screenshots/ (docs/screenshots/ keeps
 * the ones the docs show).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchChromium, RECEIVER, startTestWorkbench, type TestWorkbench } from './support.js';

const JOURNEY_MS = 120_000;
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 400, height: 860 } } as const;
const shot = (name: string) => `${ARTIFACTS}/screenshots/${name}.png`;

let wb: TestWorkbench;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  wb = await startTestWorkbench('screenshots');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
  if (wb) await wb.close();
});

async function openAs(user: string, size: keyof typeof SIZES): Promise<Page> {
  const page = await browser.newPage({ viewport: SIZES[size], deviceScaleFactor: size === 'phone' ? 2 : 1 });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(wb.url);
  await page.getByLabel('You are').selectOption(user);
  return page;
}

/** Opens a channel; on a phone through the ☰ menu, which closes again. */
async function openChannel(page: Page, id: string, phone: boolean) {
  if (phone) await page.getByRole('button', { name: 'Channels' }).click();
  await page.locator(`.nav-item[data-channel="${id}"]`).click();
}

async function typeCommand(page: Page, text: string) {
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  await composer.fill(text);
  await composer.press('Enter');
}

describe('the workbench at desktop and phone width', () => {
  it(
    'a phone-width page hides the sidebar behind ☰ and shows the form, the card, the confirmation and Home',
    async () => {
      const requester = await openAs('U0REQUESTER', 'phone');
      const sidebar = requester.locator('.sidebar');
      // Collapsed: the sidebar is off-screen, the channel takes the width.
      expect((await sidebar.boundingBox())?.x ?? 0).toBeLessThan(-100);
      await requester.getByRole('button', { name: 'Channels' }).click();
      await expect.poll(async () => (await sidebar.boundingBox())?.x).toBe(0);
      await requester.screenshot({ path: shot('phone-sidebar-open') });
      await requester.locator('.nav-item[data-channel="C0GENERAL"]').click();
      await expect.poll(async () => (await sidebar.boundingBox())?.x ?? 0).toBeLessThan(-100);

      await typeCommand(requester, `/transfer 25 base:usdc to ${RECEIVER} from ops for invoice 7`);
      const modal = requester.getByRole('dialog', { name: 'New transfer' });
      await modal
        .locator('[data-block-id="wallet"] select option', { hasText: 'ops' })
        .first()
        .waitFor({ state: 'attached' });
      await requester.screenshot({ path: shot('phone-transfer-modal') });
      await modal.getByRole('button', { name: 'Request approval' }).click();
      await modal.waitFor({ state: 'detached' });

      for (const size of ['desktop', 'phone'] as const) {
        const approver = await openAs('U0APPROVER1', size);
        await openChannel(approver, 'C0APPROVALS', size === 'phone');
        const card = approver.locator('#messages article.msg', { hasText: 'Waiting for approval' }).last();
        await card.waitFor({ timeout: 15_000 });
        expect((await card.boundingBox())?.width ?? 0).toBeLessThanOrEqual(SIZES[size].width);
        await card.screenshot({ path: shot(`${size}-card-pending`) });
        if (size === 'phone') {
          await card.getByRole('button', { name: /^Approve/ }).click();
          const confirm = approver.locator('#confirm-layer .confirm');
          await confirm.waitFor();
          await approver.screenshot({ path: shot('phone-approve-confirm') });
          await confirm.locator('[data-answer="no"]').click();
          await confirm.waitFor({ state: 'detached' });
        }
        if (size === 'phone') await approver.getByRole('button', { name: 'Channels' }).click();
        await approver.getByRole('button', { name: /^Rampart/ }).click();
        const home = approver.locator('#home [data-surface="view"]');
        await home.filter({ hasText: 'Needs your vote' }).waitFor({ timeout: 15_000 });
        await approver.screenshot({ path: shot(`${size}-home-approver`) });
        await approver.close();
      }

      await requester.close();
    },
    JOURNEY_MS,
  );

  it(
    'answers /balance at both widths',
    async () => {
      for (const size of ['desktop', 'phone'] as const) {
        const page = await openAs('U0OUTSIDER', size);
        await openChannel(page, 'C0GENERAL', size === 'phone');
        await typeCommand(page, '/balance ops');
        const answer = page.locator('#messages article.msg', { hasText: 'available on' }).last();
        await answer.waitFor({ timeout: 15_000 });
        // The page redraws when the state changes; a shot taken mid-redraw is taken again.
        await answer
          .screenshot({ path: shot(`${size}-balance`) })
          .catch(() => answer.screenshot({ path: shot(`${size}-balance`) }));
        await page.close();
      }
    },
    JOURNEY_MS,
  );
});
