import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../devkit/fake-slack/index.js';
import { SlackDriver } from '../../devkit/slack-driver.js';

// A throwaway Bolt app proves the test bed end to end: signed requests in, Web API calls out.
const TOKEN = 'xoxb-driver-test';
const SECRET = 'driver-test-signing-secret';
const CHANNEL = 'C0APPROVALS';
const ADA = 'U0ADA';

let fake: FakeSlack;
let app: App;
let driver: SlackDriver;

const transferModal = {
  type: 'modal' as const,
  callback_id: 'transfer',
  title: { type: 'plain_text' as const, text: 'New transfer' },
  submit: { type: 'plain_text' as const, text: 'Request' },
  blocks: [
    {
      type: 'input',
      block_id: 'amount_block',
      label: { type: 'plain_text' as const, text: 'Amount' },
      element: { type: 'plain_text_input', action_id: 'amount' },
    },
    {
      type: 'input',
      block_id: 'asset_block',
      label: { type: 'plain_text' as const, text: 'Asset' },
      element: {
        type: 'static_select',
        action_id: 'asset',
        options: [{ text: { type: 'plain_text' as const, text: 'USDT on Tron' }, value: 'tron:usdt' }],
      },
    },
    {
      type: 'input',
      block_id: 'to_block',
      optional: true,
      label: { type: 'plain_text' as const, text: 'Beneficiary' },
      element: { type: 'external_select', action_id: 'beneficiary' },
    },
  ],
};

let closedViews = 0;
const beneficiaryModal = (title: string) => ({
  type: 'modal' as const,
  callback_id: 'beneficiary',
  notify_on_close: true,
  title: { type: 'plain_text' as const, text: title },
  blocks: [
    {
      type: 'actions',
      elements: [
        { type: 'button' as const, action_id: 'verify', text: { type: 'plain_text' as const, text: 'Verify' } },
      ],
    },
  ],
});

function buildApp(): App {
  const receiver = new HTTPReceiver({ signingSecret: SECRET, logLevel: LogLevel.ERROR });
  const bolt = new App({
    token: TOKEN,
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: fake.apiUrl },
  });
  bolt.command('/balance', async ({ ack }) => ack({ response_type: 'ephemeral', text: 'USDT 1,000.00' }));
  bolt.command('/transfer', async ({ ack, body, client }) => {
    await ack();
    await client.views.open({ trigger_id: body.trigger_id, view: transferModal });
  });
  bolt.view('transfer', async ({ ack, view, client }) => {
    const amount = view.state.values.amount_block?.amount?.value ?? '';
    if (!/^\d+$/.test(amount)) {
      await ack({ response_action: 'errors', errors: { amount_block: 'Write a whole number.' } });
      return;
    }
    await ack();
    const asset = view.state.values.asset_block?.asset?.selected_option?.value;
    await client.chat.postMessage({
      channel: CHANNEL,
      text: `Transfer ${amount} ${asset}`,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `Transfer *${amount}* ${asset}` } },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'approve', text: { type: 'plain_text', text: 'Approve' }, value: 'r1' },
          ],
        },
      ],
    });
  });
  bolt.action('approve', async ({ ack, respond, action }) => {
    await ack();
    await respond({ replace_original: true, text: `Approved ${'value' in action ? action.value : ''}` });
  });
  bolt.event('app_home_opened', async ({ event, client }) => {
    const button = {
      type: 'button' as const,
      action_id: 'new_beneficiary',
      text: { type: 'plain_text' as const, text: 'Add' },
    };
    await client.views.publish({
      user_id: event.user,
      view: { type: 'home', blocks: [{ type: 'actions', elements: [button] }] },
    });
  });
  bolt.action('new_beneficiary', async ({ ack, body, client }) => {
    await ack();
    await client.views.open({
      trigger_id: (body as { trigger_id: string }).trigger_id,
      view: beneficiaryModal('Beneficiary'),
    });
  });
  bolt.action('verify', async ({ ack, body, client }) => {
    await ack();
    if (body.type === 'block_actions' && body.view) {
      await client.views.update({ view_id: body.view.id, hash: body.view.hash, view: beneficiaryModal('Verified') });
    }
  });
  bolt.view({ callback_id: 'beneficiary', type: 'view_closed' }, async ({ ack }) => {
    closedViews += 1;
    await ack();
  });
  bolt.options('beneficiary', async ({ ack, options }) =>
    ack({ options: [{ text: { type: 'plain_text', text: `Match for ${options.value}` }, value: 'b1' }] }),
  );
  return bolt;
}

beforeAll(async () => {
  fake = await startFakeSlack({
    botToken: TOKEN,
    people: [{ id: ADA, name: 'ada', real_name: 'Ada Obi', tz: 'Africa/Lagos' }],
    channels: [{ id: CHANNEL, name: 'treasury-approvals' }],
  });
  app = buildApp();
  const server = (await app.start(0)) as { address(): AddressInfo | string | null };
  const { port } = server.address() as AddressInfo;
  driver = new SlackDriver({ url: `http://127.0.0.1:${port}/slack/events`, signingSecret: SECRET, fake });
});

beforeEach(() => {
  fake.reset();
});

afterEach(() => {
  expect(fake.violations).toEqual([]);
});

afterAll(async () => {
  await app.stop();
  await fake.close();
  expect(driver.ackTimes.every((ms) => ms < 3000)).toBe(true);
});

describe('SlackDriver against a Bolt app', () => {
  it('shows a message sent in a command ack as an ephemeral', async () => {
    const res = await driver.command(ADA, '/balance', '', CHANNEL);
    expect(res).toMatchObject({ status: 200, body: { text: 'USDT 1,000.00' } });
    expect(fake.ephemerals(ADA).at(-1)?.text).toBe('USDT 1,000.00');
  });

  it('runs command → modal → field error → submit → card → approve', async () => {
    await driver.command(ADA, '/transfer', '', CHANNEL);
    const [modal] = await fake.waitFor(() => (fake.views(ADA).length > 0 ? fake.views(ADA) : undefined));
    if (!modal) throw new Error('no modal');

    const bad = await driver.submitView(ADA, modal, { amount: 'ten', asset: 'tron:usdt' });
    expect(bad.body).toEqual({ response_action: 'errors', errors: { amount_block: 'Write a whole number.' } });
    expect(fake.views(ADA)).toHaveLength(1);

    expect(await driver.suggest(ADA, modal, 'beneficiary', 'to_block', 'acme')).toMatchObject({
      body: { options: [{ text: { text: 'Match for acme' }, value: 'b1' }] },
    });

    await driver.submitView(ADA, modal, { amount: '250', asset: 'tron:usdt' });
    expect(fake.views(ADA)).toEqual([]);
    const post = await fake.waitForCall('chat.postMessage');
    const card = fake.message(CHANNEL, String(post.response.ts));
    if (!card) throw new Error('the card was not posted');
    expect(card.text).toBe('Transfer 250 tron:usdt');

    await driver.click(ADA, { action_id: 'approve', message: card });
    await fake.waitForCall('response_url');
    expect(fake.messages(CHANNEL).map((m) => m.text)).toEqual(['Approved r1']);
  });

  it('opens the Home tab, a modal from it, updates it from a click inside, and closes it', async () => {
    await driver.openHome(ADA);
    const home = await fake.waitFor(() => fake.home(ADA));
    await driver.click(ADA, { action_id: 'new_beneficiary', view: home });
    const [modal] = await fake.waitFor(() => (fake.views(ADA).length > 0 ? fake.views(ADA) : undefined));
    if (!modal) throw new Error('no modal');
    await driver.click(ADA, { action_id: 'verify', view: modal });
    await fake.waitForCall('views.update');
    const [updated] = fake.views(ADA);
    expect(updated).toMatchObject({ id: modal.id, title: { text: 'Verified' } });
    if (!updated) throw new Error('no modal');
    await driver.closeView(ADA, updated);
    expect([fake.views(ADA), closedViews]).toEqual([[], 1]);
  });

  it('is refused by the app when signed with a wrong secret or an old timestamp', async () => {
    const before = fake.calls.length;
    const wrong = await driver.command(ADA, '/balance', '', CHANNEL, { signingSecret: 'nope' });
    const stale = await driver.command(ADA, '/balance', '', CHANNEL, {
      timestampSeconds: Math.floor(Date.now() / 1000) - 600,
    });
    expect([wrong.status, stale.status]).toEqual([401, 401]);
    expect(fake.calls.length).toBe(before);
  });
});
