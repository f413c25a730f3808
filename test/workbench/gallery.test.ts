/**
 * Every input the workbench draws, filled in Chromium and checked in the payloads the app
 * receives: the page's values must be the ones Slack would send. A stub app stands where
 * Rampart usually is, so inputs Rampart does not use yet are covered too.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, type JsonObject, SlackDriver, startFakeSlack } from '../../devkit/index.js';
import { startWorkbenchPage, type WorkbenchServer, workspaceFor } from '../../devkit/workbench/index.js';
import { eventually } from '../support/harness.js';
import { ARTIFACTS, launchChromium } from './support.js';

const TOKEN = 'xoxb-gallery';
const USER = 'U0REQUESTER';
const plain = (text: string) => ({ type: 'plain_text', text });
const opt = (text: string, value: string) => ({ text: plain(text), value });
const input = (id: string, element: JsonObject, extra: JsonObject = {}) => ({
  type: 'input',
  block_id: id,
  label: plain(id),
  element: { action_id: id, ...element },
  ...extra,
});

const GALLERY = {
  type: 'modal',
  callback_id: 'gallery',
  title: plain('Gallery'),
  submit: plain('Next'),
  close: plain('Cancel'),
  blocks: [
    input('count', { type: 'number_input', is_decimal_allowed: false }),
    input('day', { type: 'datepicker' }),
    input('time', { type: 'timepicker' }),
    input('size', { type: 'radio_buttons', options: [opt('Small', 's'), opt('Large', 'l')] }),
    input('extras', { type: 'checkboxes', options: [opt('Gift wrap', 'gift'), opt('Receipt', 'receipt')] }),
    input('office', { type: 'external_select', min_query_length: 1 }),
    input('who', { type: 'users_select' }),
    input('tags', { type: 'multi_static_select', options: [opt('a', 'a'), opt('b', 'b'), opt('c', 'c')] }),
    input('note', { type: 'plain_text_input', multiline: true }, { optional: true }),
    {
      type: 'section',
      block_id: 'menu',
      text: { type: 'mrkdwn', text: '*More*' },
      accessory: { type: 'overflow', action_id: 'menu', options: [opt('Duplicate', 'dup')] },
    },
  ],
};

const SECOND = {
  type: 'modal',
  callback_id: 'second',
  title: plain('Second'),
  submit: plain('Done'),
  blocks: [input('why', { type: 'plain_text_input' })],
};

/** Answers like a small Bolt app: options for suggestions, push after the gallery, errors once. */
function answer(payload: JsonObject): unknown {
  if (payload.type === 'block_suggestion') {
    const offices = [opt('Lagos office', 'lagos'), opt('Abuja office', 'abuja')];
    return { options: offices.filter((o) => o.text.text.toLowerCase().includes(String(payload.value))) };
  }
  if (payload.type !== 'view_submission') return undefined;
  const view = payload.view as { callback_id: string; state: { values: Record<string, Record<string, JsonObject>> } };
  if (view.callback_id === 'gallery') return { response_action: 'push', view: SECOND };
  const why = String(view.state.values.why?.why?.value ?? '');
  return why.length < 5 ? { response_action: 'errors', errors: { why: 'Say a little more.' } } : undefined;
}

let fake: FakeSlack;
let app: Server;
let page: WorkbenchServer;
let browser: Browser;
const payloads: JsonObject[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  const workspace = workspaceFor({ approvers: ['U0APPROVER1', 'U0APPROVER2'], approvalsChannel: 'C0APPROVALS' });
  fake = await startFakeSlack({ botToken: TOKEN, people: workspace.people, channels: workspace.channels });
  app = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => {
      const payload = JSON.parse(new URLSearchParams(raw).get('payload') ?? '{}') as JsonObject;
      payloads.push(payload);
      const body = answer(payload);
      res.writeHead(200, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/events`;
  const driver = new SlackDriver({ url, signingSecret: 'unused-by-the-stub', fake });
  page = await startWorkbenchPage({ fake, driver, workspace, commands: [], port: 0 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
  await page?.close();
  await fake?.close();
  await new Promise((resolve) => app?.close(resolve));
});

async function web(method: string, args: JsonObject): Promise<JsonObject> {
  const res = await fetch(`${fake.apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return (await res.json()) as JsonObject;
}

const ofType = (type: string) => payloads.filter((p) => p.type === type);

async function openPage(): Promise<Page> {
  const tab = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  tab.on('pageerror', (err) => pageErrors.push(err.message));
  await tab.goto(page.url);
  await tab.getByLabel('You are').selectOption(USER);
  return tab;
}

describe('Block Kit inputs in Chromium', () => {
  it('sends what the person entered in every kind of input, pushes a view and shows its field error', async () => {
    expect(await web('views.open', { trigger_id: fake.issueTriggerId(USER), view: GALLERY })).toMatchObject({
      ok: true,
    });
    const tab = await openPage();
    const modal = tab.getByRole('dialog', { name: 'Gallery' });
    await modal.waitFor();
    const block = (id: string) => modal.locator(`[data-block-id="${id}"]`);
    await block('count').locator('input').fill('3');
    await block('day').locator('input').fill('2026-01-02');
    await block('time').locator('input').fill('09:30');
    await block('size').getByLabel('Large').check();
    await block('extras').getByLabel('Gift wrap').check();
    await block('office').locator('input').fill('lag');
    await block('office').getByRole('button', { name: 'Lagos office' }).click();
    await block('who').locator('select').selectOption('U0APPROVER1');
    await block('tags').locator('select').selectOption(['a', 'c']);
    await block('note').locator('textarea').fill('two\nlines');
    // Slack's ⋯: a small button opening the menu, not a select as wide as its longest option.
    const more = block('menu').getByRole('button', { name: 'More actions' });
    expect((await more.boundingBox())?.width ?? 0).toBeLessThanOrEqual(40);
    await more.click();
    await block('menu').getByRole('menuitem', { name: 'Duplicate' }).click();
    await eventually(() => ofType('block_actions')[0]);
    await modal.screenshot({ path: `${ARTIFACTS}/workbench-gallery.png` });
    await modal.getByRole('button', { name: 'Next' }).click();

    const second = tab.getByRole('dialog', { name: /^Second/ });
    await second.waitFor();
    expect(await second.textContent()).toContain('2 views stacked');
    await second.locator('[data-block-id="why"] input').fill('hm');
    await second.getByRole('button', { name: 'Done' }).click();
    await second.locator('[data-error-for="why"]').filter({ hasText: 'Say a little more.' }).waitFor();
    await second.locator('[data-block-id="why"] input').fill('because it is needed');
    await second.getByRole('button', { name: 'Done' }).click();
    // The pushed view closes; the one under it is back, as the person left it.
    await modal.waitFor();
    expect(await block('count').locator('input').inputValue()).toBe('3');
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(fake.views(USER)).toEqual([]);

    const suggestion = ofType('block_suggestion').at(-1);
    expect(suggestion).toMatchObject({ action_id: 'office', block_id: 'office', value: 'lag' });
    const menu = ofType('block_actions')[0];
    expect(menu?.actions).toMatchObject([{ action_id: 'menu', type: 'overflow', selected_option: { value: 'dup' } }]);
    // An overflow menu is an action, not state: Slack leaves it out of state.values.
    const submitted = ofType('view_submission')[0] as { view: { state: { values: JsonObject } } } | undefined;
    expect(submitted?.view.state.values).toEqual({
      count: { count: { type: 'number_input', value: '3' } },
      day: { day: { type: 'datepicker', selected_date: '2026-01-02' } },
      time: { time: { type: 'timepicker', selected_time: '09:30' } },
      size: { size: { type: 'radio_buttons', selected_option: opt('Large', 'l') } },
      extras: { extras: { type: 'checkboxes', selected_options: [opt('Gift wrap', 'gift')] } },
      office: { office: { type: 'external_select', selected_option: opt('Lagos office', 'lagos') } },
      who: { who: { type: 'users_select', selected_user: 'U0APPROVER1' } },
      tags: { tags: { type: 'multi_static_select', selected_options: [opt('a', 'a'), opt('c', 'c')] } },
      note: { note: { type: 'plain_text_input', value: 'two\nlines' } },
    });
    await tab.close();
  }, 60_000);

  it('shows a placeholder for a block it cannot draw, and sends a pick in a message select', async () => {
    const posted = await web('chat.postMessage', {
      channel: 'C0GENERAL',
      text: 'fallback',
      blocks: [
        { type: 'rich_text', block_id: 'rt', elements: [] },
        {
          type: 'actions',
          block_id: 'pick',
          elements: [{ type: 'static_select', action_id: 'size', options: [opt('Small', 's'), opt('Large', 'l')] }],
        },
      ],
    });
    expect(posted).toMatchObject({ ok: true });
    const tab = await openPage();
    const message = tab.locator('#messages article.msg').last();
    await message.waitFor();
    expect(await message.locator('.bk-unsupported').textContent()).toBe(
      'Not rendered by the workbench: block "rich_text"',
    );
    await message.locator('[data-block-id="pick"] select').selectOption('l');
    const pick = await eventually(() =>
      ofType('block_actions').find((p) => (p.actions as JsonObject[])[0]?.action_id === 'size'),
    );
    expect(pick.actions).toMatchObject([{ type: 'static_select', selected_option: { value: 'l' } }]);
    expect(pick.container).toMatchObject({ type: 'message', channel_id: 'C0GENERAL', message_ts: posted.ts });
    await tab.close();
  }, 60_000);

  it('checks required fields and numbers in the page, as Slack does, without sending the submission', async () => {
    expect(await web('views.open', { trigger_id: fake.issueTriggerId(USER), view: GALLERY })).toMatchObject({
      ok: true,
    });
    const submissions = ofType('view_submission').length;
    const tab = await openPage();
    const modal = tab.getByRole('dialog', { name: 'Gallery' });
    await modal.waitFor();
    await modal.locator('[data-block-id="count"] input').fill('2.5');
    await modal.getByRole('button', { name: 'Next' }).click();
    const error = (id: string) => modal.locator(`[data-error-for="${id}"]`);
    await error('count').filter({ hasText: 'Please enter a whole number.' }).waitFor();
    expect(await error('day').textContent()).toBe('Please complete this required field.');
    expect(await error('office').textContent()).toBe('Please complete this required field.');
    expect(await error('note').isHidden()).toBe(true);
    expect(ofType('view_submission')).toHaveLength(submissions);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
    await tab.close();
  }, 60_000);
});
