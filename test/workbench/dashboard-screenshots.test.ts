/**
 * In the workbench (real Chromium): App Home with the sandbox's generated balance
 * history drawn as charts, and `/report 30d` with its chart and numbers. PNGs go to
 * test-artifacts/screenshots/ (docs/screenshots/ keeps the ones docs/reports.md shows).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blocksText, eventually, lastView } from '../support/harness.js';
import { ARTIFACTS, launchChromium, RECEIVER, startTestWorkbench, type TestWorkbench } from './support.js';

const shot = (name: string) => `${ARTIFACTS}/screenshots/${name}.png`;
let wb: TestWorkbench;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  wb = await startTestWorkbench('dashboard', { VELOCITY_LIMITS: 'ops:USDC=5000/24h' });
  // One paid transfer, through signed requests, so the report has outflow to chart.
  const approvals = wb.workspace.approvalsChannel;
  await wb.driver.command('U0REQUESTER', '/transfer', `250 base:usdc to ${RECEIVER} from ops for invoice 7`);
  const view = await eventually(() => lastView(wb.fake, 'U0REQUESTER'), 15_000, 'transfer modal');
  await wb.driver.submitView('U0REQUESTER', view, {});
  const card = await eventually(() => wb.fake.messages(approvals)[0], 15_000, 'card');
  await wb.driver.click('U0APPROVER1', { action_id: 'request_approve', message: card, channel: approvals });
  await eventually(
    () => (blocksText(wb.fake.messages(approvals)[0]).includes('Succeeded') ? true : undefined),
    15_000,
    'the transfer to succeed',
  );
}, 90_000);

afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
  if (wb) await wb.close();
});

it('shows App Home with balance charts and /report 30d with its chart', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(wb.url);
  await page.getByLabel('You are').selectOption('U0APPROVER1');
  await page.getByRole('button', { name: /^Rampart/ }).click();
  const home = page.locator('#home [data-surface="view"]');
  await home.filter({ hasText: 'Balances now' }).waitFor({ timeout: 20_000 });
  expect(await home.locator('.wb-chart[data-chart-type="area"]').count()).toBeGreaterThan(0);
  expect(await home.locator('.wb-chart-area').count()).toBeGreaterThan(0);
  // After the 250.00 paid, the chart still ends at the balance shown as now.
  const text = (await home.textContent()) ?? '';
  const now = /USDC on Base: now ([\d,.]+)/.exec(text)?.[1];
  expect(text).toContain(`ops · ${now} USDC on Base`);
  await page.locator('#home').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: shot('desktop-home-dashboard') });

  await page.locator('.nav-item[data-channel="C0GENERAL"]').click();
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  await composer.fill('/report 30d');
  await composer.press('Enter');
  const answer = page.locator('#messages article.msg', { hasText: 'Treasury report, last 30 days' }).last();
  await answer.waitFor({ timeout: 20_000 });
  // 250.00 out reaches 5 % of the 5,000.00 limit: the limit is a line, so Slack gets a line chart.
  expect(await answer.locator('.wb-chart[data-chart-type="line"]').count()).toBe(1);
  expect(await answer.textContent()).toContain('ops limit 5,000.00 per 24 h');
  await answer.screenshot({ path: shot('desktop-report') });
  await page.close();
}, 120_000);
