/**
 * The docs' screenshots, retaken from the workbench in Chromium at desktop width (1280 px) and a
 * phone's (400 px, Slack mobile's message width, at 2× density), straight into docs/screenshots/
 * (docs/what-people-see.md lists each file). One scene after another on one workbench: a pending
 * card, an outcome-unknown card with its Record outcome form, a batch card, a paused batch, an
 * API request's card, the passkey page, App Home, /report, /balance and Rampart's direct
 * messages. Run it alone after changing what people see:
 * `npx vitest run test/workbench/screenshots.test.ts`.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElement, type StoredMessage } from '../../devkit/index.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { blocksText, eventually, lastView } from '../support/harness.js';
import { approverBrowser, openLink, pressAndRead } from '../support/passkey-browser.js';
import { enrolLinkFromCli, launchChromium, RECEIVER, startTestWorkbench, type TestWorkbench } from './support.js';

const SCENE_MS = 120_000;
const DOCS = 'docs/screenshots';
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 400, height: 860 } } as const;
type Size = keyof typeof SIZES;
const BOTH: readonly Size[] = ['desktop', 'phone'];
const APPROVALS = 'C0APPROVALS';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER1';

let wb: TestWorkbench;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  await mkdir(DOCS, { recursive: true });
  browser = await launchChromium();
  wb = await startTestWorkbench('screenshots', { STEP_UP_ABOVE: 'USDC=10000', BATCH_RATE: 'off' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
  if (wb) await wb.close();
});

/** A fresh page as `user`; the zone and locale are fixed so dates read the same on every machine. */
async function openAs(user: string, size: Size): Promise<Page> {
  const page = await browser.newPage({
    viewport: SIZES[size],
    deviceScaleFactor: size === 'phone' ? 2 : 1,
    timezoneId: 'Africa/Lagos',
    locale: 'en-GB',
  });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(wb.url);
  await page.getByLabel('You are').selectOption(user);
  return page;
}

/** Opens a sidebar entry; on a phone through the ☰ menu, which closes again. */
async function openNav(page: Page, selector: string, size: Size) {
  if (size === 'phone') await page.getByRole('button', { name: 'Channels' }).click();
  await page.locator(selector).click();
  // The sidebar slides away: a shot taken before it is gone would show it half-way.
  if (size === 'phone')
    await expect.poll(async () => (await page.locator('.sidebar').boundingBox())?.x ?? 0).toBeLessThan(-250);
}

const channel = (id: string) => `.nav-item[data-channel="${id}"]`;

/** The page redraws when the state changes; a shot taken mid-redraw is taken again. */
async function shoot(target: Page | Locator, size: Size, name: string): Promise<void> {
  const path = `${DOCS}/${size}-${name}.png`;
  const page = 'page' in target ? target.page() : undefined;
  const view = page?.viewportSize();
  const box = page ? await (target as Locator).boundingBox() : null;
  // A message taller than the window: the window grows for the shot, so nothing is cut off.
  const grow = page && view && box && box.height > view.height - 160;
  if (grow) await page.setViewportSize({ width: view.width, height: Math.ceil(box.height) + 240 });
  await target.screenshot({ path }).catch(() => target.screenshot({ path }));
  if (grow) await page.setViewportSize(view);
}

async function typeCommand(page: Page, text: string) {
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  await composer.fill(text);
  await composer.press('Enter');
}

/** The top-level card in the approvals channel whose blocks mention `id`. */
const cardOf = (page: Page, id: string) =>
  page.locator('#messages article.msg:not(.ephemeral)', { hasText: new RegExp(`\\b${id}\\b`) }).first();

const newestCard = (): StoredMessage | undefined => wb.fake.messages(APPROVALS).at(-1);
const idOf = (m: StoredMessage | undefined): string => /\b[RB]-\d+\b/.exec(blocksText(m))?.[0] ?? '';

/** `/transfer …` as the requester, through signed requests, the form sent as filled: the new card's id. */
async function requestTransfer(text: string): Promise<string> {
  const before = wb.fake.messages(APPROVALS).length;
  const seen = new Set(wb.fake.views(REQUESTER).map((v) => v.id));
  await wb.driver.command(REQUESTER, '/transfer', text);
  const view = await eventually(
    () => wb.fake.views(REQUESTER).find((v) => !seen.has(v.id)) ?? lastView(wb.fake, REQUESTER),
    15_000,
    'the transfer form',
  );
  await wb.driver.submitView(REQUESTER, view, {});
  return idOf(await eventually(() => wb.fake.messages(APPROVALS)[before], 15_000, 'the new card'));
}

const storedCard = (id: string) => wb.fake.messages(APPROVALS).find((m) => idOf(m) === id);

async function approve(id: string, user = APPROVER): Promise<void> {
  const card = storedCard(id);
  if (!card) throw new Error(`no card for ${id}`);
  await wb.driver.click(user, { action_id: 'request_approve', message: card, channel: APPROVALS });
}

const until = (id: string, text: RegExp, what: string) =>
  eventually(() => (text.test(blocksText(storedCard(id))) ? true : undefined), 20_000, what).catch((err) => {
    throw new Error(`${String(err)}; the card says: ${blocksText(storedCard(id))}`);
  });

describe('the docs’ screenshots, at desktop and phone width', () => {
  const ids: Record<string, string> = {};

  it(
    'a pending card: the form, the card, the Approve confirmation, the sidebar',
    async () => {
      const requester = await openAs(REQUESTER, 'phone');
      const sidebar = requester.locator('.sidebar');
      // At 400 px the sidebar hides behind ☰ and the channel takes the width.
      expect((await sidebar.boundingBox())?.x ?? 0).toBeLessThan(-100);
      await requester.getByRole('button', { name: 'Channels' }).click();
      await expect.poll(async () => (await sidebar.boundingBox())?.x).toBe(0);
      await shoot(requester, 'phone', 'sidebar-open');
      await requester.locator(channel('C0GENERAL')).click();
      await expect.poll(async () => (await sidebar.boundingBox())?.x ?? 0).toBeLessThan(-100);
      await typeCommand(requester, `/transfer 25 base:usdc to ${RECEIVER} from ops for invoice 7`);
      const modal = requester.getByRole('dialog', { name: 'New transfer' });
      await modal
        .locator('[data-block-id="wallet"] select option', { hasText: 'ops' })
        .first()
        .waitFor({ state: 'attached' });
      await shoot(requester, 'phone', 'transfer-modal');
      await modal.getByRole('button', { name: 'Request approval' }).click();
      await modal.waitFor({ state: 'detached' });
      await requester.close();
      ids.pending = idOf(await eventually(() => newestCard(), 15_000, 'the card'));

      for (const size of BOTH) {
        const approver = await openAs(APPROVER, size);
        await openNav(approver, channel(APPROVALS), size);
        const card = cardOf(approver, ids.pending);
        await card.waitFor({ timeout: 15_000 });
        expect((await card.boundingBox())?.width ?? 0).toBeLessThanOrEqual(SIZES[size].width);
        // <!date> in the reader's zone, as Slack draws it, not the UTC fallback; ⋯ a small button.
        expect(await card.locator('time.mk-date').first().textContent()).toMatch(/^Tomorrow \d\d:\d\d$/);
        expect((await card.getByRole('button', { name: 'More actions' }).boundingBox())?.width).toBeLessThan(40);
        await shoot(card, size, 'card-pending');
        await card.getByRole('button', { name: 'More actions' }).click();
        await card.getByRole('menuitem').first().waitFor();
        await shoot(approver, size, 'card-menu');
        // The composer's placeholder fits one line on a phone.
        const placeholder = await approver
          .getByRole('textbox', { name: 'Message', exact: true })
          .getAttribute('placeholder');
        if (size === 'phone') expect(placeholder).toBe('Message #treasury-approvals');
        await approver.keyboard.press('Escape');
        await card.getByRole('menu').waitFor({ state: 'hidden' });
        await card.getByRole('button', { name: /^Approve/ }).click();
        const confirm = approver.locator('#confirm-layer .confirm');
        await confirm.waitFor();
        await shoot(approver, size, 'approve-confirm');
        await confirm.locator('[data-answer="no"]').click();
        await confirm.waitFor({ state: 'detached' });
        await approver.close();
      }
    },
    SCENE_MS,
  );

  it(
    'an outcome-unknown card with Record outcome, and the form it opens',
    async () => {
      ids.unknown = await requestTransfer(`40 base:usdc to ${RECEIVER} from ops for invoice 8`);
      // The wallet service fails after the call may have reached it: the outcome is unknown.
      wb.rampart.sandbox?.faults.failNext('/transfer', 1);
      await approve(ids.unknown);
      await until(ids.unknown, /outcome unknown/i, 'the card to say the outcome is unknown');
      for (const size of BOTH) {
        const page = await openAs('U0APPROVER2', size);
        await openNav(page, channel(APPROVALS), size);
        const card = cardOf(page, ids.unknown);
        const record = card.getByRole('button', { name: /^Record (the )?outcome/ });
        await record.waitFor({ timeout: 15_000 });
        await shoot(card, size, 'card-unknown');
        await record.click();
        const form = page.getByRole('dialog');
        await form.waitFor({ timeout: 15_000 });
        // From its top: the payment restated in full comes first.
        await form.locator('.modal-body').evaluate((el) => el.scrollTo(0, 0));
        await shoot(page, size, 'record-outcome');
        await form.getByRole('button', { name: 'Close' }).click();
        await form.waitFor({ state: 'detached' });
        await page.close();
      }
    },
    SCENE_MS,
  );

  it(
    'a batch card waiting for approval, then paused on a row whose outcome is unknown',
    async () => {
      const csv = `receiver,amount,reference\n${RECEIVER},5000,INV-1\n${RECEIVER},1234.994,INV-2\n${RECEIVER},7,INV-3\n`;
      const seen = new Set(wb.fake.views(REQUESTER).map((v) => v.id));
      await wb.driver.command(REQUESTER, '/batch', '');
      const view = await eventually(
        () => wb.fake.views(REQUESTER).find((v) => v.callback_id === 'batch_modal' && !seen.has(v.id)),
        15_000,
        'the batch form',
      );
      const file = wb.fake.pickFile(REQUESTER, 'vendors.csv', Buffer.from(csv));
      const before = wb.fake.messages(APPROVALS).length;
      await wb.driver.submitView(REQUESTER, view, {
        kind: 'transfers',
        wallet: 'ops',
        asset: 'base:usdc',
        file,
        reason: 'November vendors',
      });
      ids.batch = idOf(await eventually(() => wb.fake.messages(APPROVALS)[before], 20_000, 'the batch card'));
      expect(ids.batch).toMatch(/^B-/);
      for (const size of BOTH) {
        const page = await openAs(APPROVER, size);
        await openNav(page, channel(APPROVALS), size);
        const card = cardOf(page, ids.batch);
        await card.getByRole('button', { name: /^Approve/ }).waitFor({ timeout: 15_000 });
        await shoot(card, size, 'batch-card');
        await page.close();
      }

      // The first row's call fails after it may have reached the service: the batch pauses there.
      wb.rampart.sandbox?.faults.failNext('/transfer', 1);
      expect(findElement((storedCard(ids.batch)?.blocks ?? []) as never[], 'request_approve')).toBeDefined();
      await approve(ids.batch);
      await until(ids.batch, /paused/i, 'the batch to pause');
      for (const size of BOTH) {
        const page = await openAs(APPROVER, size);
        await openNav(page, channel(APPROVALS), size);
        const paused = cardOf(page, ids.batch);
        await paused.filter({ hasText: /paused/i }).waitFor({ timeout: 15_000 });
        await shoot(paused, size, 'batch-paused');
        const replies = paused.locator('[data-open-thread]');
        if ((await replies.count()) > 0) {
          await replies.click();
          const thread = page.locator('#thread');
          await thread.waitFor();
          await shoot(page, size, 'batch-paused-thread');
        }
        await page.close();
      }
    },
    SCENE_MS,
  );

  it(
    'a request made over the HTTP API',
    async () => {
      const deps = wb.rampart.deps;
      const created = await createApiKey(
        { keys: deps.apiKeys, now: deps.now },
        {
          name: 'erp',
          owner: REQUESTER,
          scopes: ['requests:create', 'requests:read'],
          limits: { maxOpen: 50, allowNewDestinations: true },
          lifetimeMs: 90 * 86_400_000,
        },
      );
      if (created.kind !== 'created') throw new Error(`no API key: ${created.kind}`);
      const before = wb.fake.messages(APPROVALS).length;
      const res = await fetch(`http://127.0.0.1:${wb.rampart.port}/api/v1/transfers`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${created.token}`,
          'content-type': 'application/json',
          'idempotency-key': '0b6f8f3e-3c55-4a57-9d0e-0a3c1d2f5e61',
        },
        body: JSON.stringify({
          wallet: 'ops',
          asset: 'base:usdc',
          amount: '25',
          receiver: RECEIVER,
          reason: 'ERP invoice 2211',
        }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      ids.api = idOf(await eventually(() => wb.fake.messages(APPROVALS)[before], 15_000, 'the API card'));
      for (const size of BOTH) {
        const page = await openAs(APPROVER, size);
        await openNav(page, channel(APPROVALS), size);
        const card = cardOf(page, ids.api);
        await card.waitFor({ timeout: 15_000 });
        await shoot(card, size, 'card-api');
        await page.close();
      }
    },
    SCENE_MS,
  );

  it(
    'the passkey page a step-up approval opens',
    async () => {
      const device = await approverBrowser(browser);
      await openLink(device, await enrolLinkFromCli(wb, APPROVER));
      expect(await pressAndRead(device)).toContain('can approve payments now');

      ids.stepUp = await requestTransfer(`20000 base:usdc to ${RECEIVER} from ops for treasury top-up`);
      await approve(ids.stepUp);
      // The private "Approve with your passkey" link button.
      const url = await eventually(
        () =>
          wb.fake
            .ephemerals(APPROVER)
            .filter((e) => blocksText(e).includes(ids.stepUp ?? ''))
            .map((e) => /"url":"(http[^"]+)"/.exec(JSON.stringify(e.blocks))?.[1])
            .find((u) => u !== undefined),
        15_000,
        'the passkey link',
      );
      const page = await device.page.context().newPage();
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(url);
      await page.locator('#main', { hasNotText: 'Checking your link' }).locator('#go').waitFor({ timeout: 15_000 });
      for (const size of BOTH) {
        await page.setViewportSize(SIZES[size]);
        await page.screenshot({ path: `${DOCS}/${size}-step-up-page.png`, fullPage: true });
      }
      await page.close();
      expect(device.errors).toEqual([]);
    },
    SCENE_MS,
  );

  it(
    'App Home, /report 30d, /balance and the direct messages',
    async () => {
      // One paid transfer, so the report has outflow to chart and the requester an outcome message.
      const paid = await requestTransfer(`250 base:usdc to ${RECEIVER} from ops for invoice 9`);
      await approve(paid);
      await until(paid, /succeeded/i, 'the transfer to succeed');
      for (const size of BOTH) {
        const approver = await openAs(APPROVER, size);
        await openNav(approver, '#nav-home', size);
        const home = approver.locator('#home [data-surface="view"]');
        await home.filter({ hasText: 'Balances now' }).waitFor({ timeout: 20_000 });
        // A page read from its top, not a conversation scrolled to its end.
        expect(await approver.locator('#home').evaluate((el) => el.scrollTop)).toBe(0);
        await shoot(approver, size, 'home-approver');

        await openNav(approver, channel('C0GENERAL'), size);
        await typeCommand(approver, '/report 30d');
        const report = approver.locator('#messages article.msg', { hasText: 'Treasury report' }).last();
        await report.waitFor({ timeout: 30_000 });
        await shoot(report, size, 'report');

        await typeCommand(approver, '/balance ops');
        const balance = approver.locator('#messages article.msg', { hasText: 'available on' }).last();
        await balance.waitFor({ timeout: 15_000 });
        await shoot(balance, size, 'balance');
        await approver.close();

        const requester = await openAs(REQUESTER, size);
        await openNav(requester, '#nav-dm', size);
        await requester.locator('#messages article.msg').first().waitFor({ timeout: 15_000 });
        expect(await requester.locator('#title').textContent()).toBe('Rampart (messages)');
        expect(await requester.locator('#composer').isHidden()).toBe(true);
        await shoot(requester, size, 'direct-messages');
        // A permalink opens its message in the workbench, as Slack opens it in the app.
        const notice = requester.locator('#messages article.msg', { hasText: ids.unknown ?? '' });
        await notice.locator('a.mk-link[href*="/archives/"]').first().click();
        await requester
          .locator('#thread')
          .filter({ hasText: ids.unknown ?? '' })
          .waitFor({ timeout: 15_000 });
        expect(await requester.locator('#title').textContent()).toBe('# treasury-approvals');
        await requester.close();
      }
    },
    SCENE_MS,
  );
});
