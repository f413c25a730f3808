/**
 * App Home on a phone (real Chromium, 400 × 800 px): with the sandbox's four wallets, three
 * requests awaiting this approver's vote and two batches, the whole App Home is at most 2,400 px
 * tall — what needs a vote, balances now, limits and outcomes first, one wallet's charts after
 * them, each chart after its summary line; a button shows another wallet's charts instead.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, lastView } from '../support/harness.js';
import { ARTIFACTS, launchChromium, postJson, RECEIVER, startTestWorkbench, type TestWorkbench } from './support.js';

const REQUESTER = 'U0REQUESTER';
let wb: TestWorkbench;
let browser: Browser;
const pageErrors: string[] = [];

const post = (path: string, body: unknown) => postJson(wb, path, body);

async function transfer(amount: string, reason: string): Promise<void> {
  const seen = new Set(wb.fake.views(REQUESTER).map((v) => v.id));
  await wb.driver.command(REQUESTER, '/transfer', `${amount} base:usdc to ${RECEIVER} from ops for ${reason}`);
  const view = await eventually(
    () => {
      const v = lastView(wb.fake, REQUESTER);
      return v && !seen.has(v.id) ? v : undefined;
    },
    15_000,
    'the transfer form',
  );
  await wb.driver.submitView(REQUESTER, view, {});
}

/** /batch through the page's API, as the form in the browser does. */
async function batch(name: string, rows: number): Promise<void> {
  const seen = new Set(wb.fake.views(REQUESTER).map((v) => v.id));
  await post('/api/command', { user: REQUESTER, channel: 'C0GENERAL', text: '/batch' });
  const view = await eventually(
    () => wb.fake.views(REQUESTER).find((v) => v.callback_id === 'batch_modal' && !seen.has(v.id)),
    10_000,
    'the batch form',
  );
  const lines = Array.from({ length: rows }, (_, i) => `${RECEIVER},${10 + i},${name}-${i + 1}`);
  const csv = `receiver,amount,reference\n${lines.join('\n')}\n`;
  const file = await post('/api/pick-file', { user: REQUESTER, name, content: Buffer.from(csv).toString('base64') });
  const submitted = await post('/api/submit', {
    user: REQUESTER,
    viewId: view.id,
    values: { kind: 'transfers', wallet: 'ops', asset: 'base:usdc', file, reason: `vendors ${name}` },
  });
  expect(submitted.errors).toEqual({});
}

beforeAll(async () => {
  browser = await launchChromium();
  wb = await startTestWorkbench('home-phone', { VELOCITY_LIMITS: 'ops:USDC=200000/24h', BATCH_RATE: 'off' });
  expect(wb.rampart.deps.config.wallets).toHaveLength(4);
  for (const [i, amount] of ['15000', '60000', '250'].entries()) await transfer(amount, `invoice ${i + 1}`);
  await batch('vendors-a.csv', 5);
  await batch('vendors-b.csv', 8);
  await eventually(
    () => (wb.fake.messages(wb.workspace.approvalsChannel).length >= 5 ? true : undefined),
    20_000,
    'five cards',
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
  if (wb) await wb.close();
});

it('fits App Home in three phone screens, what needs a vote first and one wallet’s charts last', async () => {
  const page = await browser.newPage({ viewport: { width: 400, height: 800 }, deviceScaleFactor: 2 });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(wb.url);
  await page.getByLabel('You are').selectOption('U0APPROVER1');
  await page.getByRole('button', { name: 'Channels' }).click();
  await page.getByRole('button', { name: /^Rampart/ }).click();
  const home = page.locator('#home [data-surface="view"]');
  await home.filter({ hasText: 'Balances now' }).waitFor({ timeout: 20_000 });
  await home.locator('.wb-chart').first().waitFor({ timeout: 20_000 });
  const text = (await home.textContent()) ?? '';
  expect(text).toContain('Needs your vote (5)');
  // Order: the vote, the balances, the limits and outcomes, then the charts.
  const at = (s: string) => text.indexOf(s);
  expect(at('Needs your vote')).toBeLessThan(at('Balances now'));
  expect(at('Balances now')).toBeLessThan(at('Velocity limits'));
  expect(at('Last ten outcomes')).toBeLessThan(at('ops, last 30 days'));
  // Each chart follows its summary line, and the chart's last point is the balance now.
  expect(text).toMatch(/USDC on Base: now [\d,.]+ · 30-day low [\d,.]+ \([A-Z][a-z]{2} \d+\) · high/);
  const now = /USDC on Base: now ([\d,.]+)/.exec(text)?.[1];
  expect(text).toContain(`*ops* · ${now} USDC on Base`.replaceAll('*', ''));
  await page.locator('#home').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: `${ARTIFACTS}/screenshots/phone-home-dashboard.png`, fullPage: false });
  const height = await page.locator('#home').evaluate((el) => el.scrollHeight);
  console.log('APP HOME HEIGHT', height);
  expect(height).toBeLessThanOrEqual(2_400);
  await page.setViewportSize({ width: 400, height });
  await page.screenshot({ path: `${ARTIFACTS}/screenshots/phone-home-dashboard-full.png` });
  await page.setViewportSize({ width: 400, height: 800 });

  // Another wallet's charts replace the first one's.
  await home.getByRole('button', { name: 'treasury charts' }).click();
  await home.filter({ hasText: 'treasury, last 30 days' }).waitFor({ timeout: 20_000 });
  expect(await home.textContent()).not.toContain('ops, last 30 days');
  await page.close();
}, 120_000);
