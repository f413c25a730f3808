import { webApi } from '@slack/bolt';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../devkit/fake-slack/index.js';

const TOKEN = 'xoxb-fake-test-token';
const CHANNEL = 'C0APPROVALS';

// WebClient logs refused calls at error level; these tests expect refusals.
const quiet: webApi.Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => webApi.LogLevel.ERROR,
  setName: () => {},
};
const clientFor = (token: string, options: webApi.WebClientOptions = {}) =>
  new webApi.WebClient(token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logger: quiet, ...options });

let fake: FakeSlack;
let now: number;
let client: webApi.WebClient;

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const modal = (title = 'Transfer', extra: Record<string, unknown> = {}) => ({
  type: 'modal' as const,
  callback_id: 'transfer',
  title: { type: 'plain_text' as const, text: title },
  blocks: [section('Fill this in')],
  ...extra,
});

beforeEach(async () => {
  now = Date.parse('2025-03-01T09:00:00Z');
  fake = await startFakeSlack({
    botToken: TOKEN,
    clock: () => now,
    people: [{ id: 'U0ADA', name: 'ada', real_name: 'Ada Obi', tz: 'Africa/Lagos' }],
    usergroups: { S0APPROVERS: ['U0ADA', 'U0BEN'] },
    channels: [
      { id: CHANNEL, name: 'treasury-approvals' },
      { id: 'C0OUTSIDE', name: 'elsewhere', is_member: false },
    ],
  });
  client = clientFor(TOKEN);
});

afterEach(async () => {
  await fake.close();
});

describe('fake Slack Web API', () => {
  it('answers auth.test for the bot token and refuses any other token', async () => {
    const auth = await client.auth.test();
    expect(auth).toMatchObject({ ok: true, user_id: 'U0RAMPART', bot_id: 'B0RAMPART', team_id: 'T0FAKE0001' });
    const stranger = clientFor('xoxb-wrong');
    await expect(stranger.auth.test()).rejects.toMatchObject({ data: { ok: false, error: 'invalid_auth' } });
    expect(fake.problems).toEqual(['auth.test → invalid_auth']);
  });

  it('posts, threads and updates messages, recording decoded arguments', async () => {
    const card = await client.chat.postMessage({ channel: CHANNEL, text: 'Transfer request', blocks: [section('v1')] });
    expect(card).toMatchObject({
      ok: true,
      channel: CHANNEL,
      message: { text: 'Transfer request', user: 'U0RAMPART' },
    });
    const ts = card.ts ?? '';
    await client.chat.postMessage({ channel: CHANNEL, thread_ts: ts, text: 'Approved by Ada' });
    await client.chat.update({ channel: CHANNEL, ts, text: 'Transfer approved', blocks: [section('v2')] });

    const [shown] = fake.messages(CHANNEL);
    expect(fake.messages(CHANNEL)).toHaveLength(1);
    expect(shown).toMatchObject({ ts, text: 'Transfer approved', blocks: [{ text: { text: 'v2' } }] });
    expect(fake.thread(CHANNEL, ts).map((m) => m.text)).toEqual(['Approved by Ada']);
    expect(fake.callsTo('chat.postMessage')[0]?.args.blocks).toEqual([section('v1')]);
    expect(fake.violations).toEqual([]);
  });

  it('gives permalinks and ephemerals, and refuses channels the bot is not in', async () => {
    const { ts } = await client.chat.postMessage({ channel: CHANNEL, text: 'hello' });
    const link = await client.chat.getPermalink({ channel: CHANNEL, message_ts: ts ?? '' });
    expect(link.permalink).toBe(`https://fake.slack.local/archives/${CHANNEL}/p${(ts ?? '').replace('.', '')}`);
    const eph = await client.chat.postEphemeral({ channel: CHANNEL, user: 'U0ADA', text: 'only you' });
    expect(fake.ephemerals('U0ADA')).toMatchObject([{ ts: eph.message_ts, text: 'only you', recipient: 'U0ADA' }]);
    await expect(client.chat.postMessage({ channel: 'C0OUTSIDE', text: 'x' })).rejects.toMatchObject({
      data: { error: 'not_in_channel' },
    });
  });

  it("takes a direct message by user id (the app's Messages tab) and links to it", async () => {
    const { ts, channel } = await client.chat.postMessage({ channel: 'U0ADA', text: 'reminder' });
    expect(channel).toBe('U0ADA');
    expect(fake.messages('U0ADA')).toMatchObject([{ ts, text: 'reminder' }]);
    const link = await client.chat.getPermalink({ channel: 'U0ADA', message_ts: ts ?? '' });
    expect(link.permalink).toContain('/archives/U0ADA/');
  });

  it('refuses a message of 51 blocks and records the violation', async () => {
    const blocks = Array.from({ length: 51 }, (_, i) => section(`row ${i}`));
    await expect(client.chat.postMessage({ channel: CHANNEL, text: 'big', blocks })).rejects.toMatchObject({
      data: { ok: false, error: 'invalid_blocks', errors: ['/blocks: 51 items, the limit is 50'] },
    });
    expect(fake.violations).toEqual(['chat.postMessage (message) /blocks: 51 items, the limit is 50']);
    expect(fake.messages(CHANNEL)).toEqual([]);
  });

  it('rate-limits the next calls with 429 and Retry-After, without effect', async () => {
    fake.rateLimitNext('chat.postMessage', 1, 7);
    const strict = clientFor(TOKEN, { rejectRateLimitedCalls: true });
    await expect(strict.chat.postMessage({ channel: CHANNEL, text: 'x' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: 7,
    });
    expect(fake.messages(CHANNEL)).toEqual([]);
    await strict.chat.postMessage({ channel: CHANNEL, text: 'second try' });
    expect(fake.messages(CHANNEL).map((m) => m.text)).toEqual(['second try']);
    expect(fake.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
  });

  it('opens a modal only with a fresh, unused trigger id it issued', async () => {
    await expect(client.views.open({ trigger_id: '123.456.abc', view: modal() })).rejects.toMatchObject({
      data: { error: 'invalid_arguments' },
    });
    const stale = fake.issueTriggerId('U0ADA');
    now += 3000;
    await expect(client.views.open({ trigger_id: stale, view: modal() })).rejects.toMatchObject({
      data: { error: 'expired_trigger_id' },
    });
    const fresh = fake.issueTriggerId('U0ADA');
    expect(fresh).toMatch(/^\d+\.\d+\.[0-9a-f]+$/);
    const opened = await client.views.open({ trigger_id: fresh, view: modal() });
    expect(opened.view).toMatchObject({
      id: expect.stringMatching(/^V/),
      hash: expect.any(String),
      callback_id: 'transfer',
    });
    await expect(client.views.open({ trigger_id: fresh, view: modal() })).rejects.toMatchObject({
      data: { error: 'exchanged_trigger_id' },
    });
    expect(fake.views('U0ADA').map((v) => v.id)).toEqual([opened.view?.id]);
  });

  it('pushes, updates by view_id with hash checks, and publishes the App Home', async () => {
    const root = await client.views.open({ trigger_id: fake.issueTriggerId('U0ADA'), view: modal() });
    const rootId = root.view?.id ?? '';
    await client.views.push({ trigger_id: fake.issueTriggerId('U0ADA'), view: modal('Add beneficiary') });
    expect(fake.views('U0ADA').map((v) => v.title?.text)).toEqual(['Transfer', 'Add beneficiary']);
    await expect(client.views.update({ view_id: rootId, hash: 'stale', view: modal() })).rejects.toMatchObject({
      data: { error: 'hash_conflict' },
    });
    await client.views.update({ view_id: rootId, hash: root.view?.hash ?? '', view: modal('Transfer (2)') });
    expect(fake.views('U0ADA')[0]).toMatchObject({ id: rootId, title: { text: 'Transfer (2)' } });
    await client.views.publish({ user_id: 'U0ADA', view: { type: 'home', blocks: [section('Welcome')] } });
    expect(fake.home('U0ADA')?.blocks).toMatchObject([{ text: { text: 'Welcome' } }]);
    await expect(
      client.views.open({ trigger_id: fake.issueTriggerId('U0ADA'), view: modal('x'.repeat(25)) }),
    ).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    expect(fake.violations).toEqual(['views.open (modal transfer) /title/text: 25 characters, the limit is 24']);
  });

  it('knows people, user groups and channels, and flags unknown methods', async () => {
    const info = await client.users.info({ user: 'U0ADA' });
    expect(info.user).toMatchObject({ id: 'U0ADA', real_name: 'Ada Obi', tz: 'Africa/Lagos', tz_offset: 3600 });
    expect((await client.usergroups.users.list({ usergroup: 'S0APPROVERS' })).users).toEqual(['U0ADA', 'U0BEN']);
    expect((await client.conversations.info({ channel: CHANNEL })).channel).toMatchObject({
      name: 'treasury-approvals',
    });
    await expect(client.apiCall('files.upload', {})).rejects.toMatchObject({ data: { error: 'unknown_method' } });
    expect(fake.problems).toEqual(['files.upload → unknown_method']);
  });

  it('accepts JSON bodies as well as form bodies', async () => {
    const res = await request(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: CHANNEL, text: 'json', blocks: [section('j')] }),
    });
    expect(await res.body.json()).toMatchObject({ ok: true, message: { text: 'json' } });
    expect(fake.messages(CHANNEL)[0]?.blocks).toMatchObject([section('j')]);
  });

  it('applies response_url posts as Slack does, at most five times', async () => {
    const { ts } = await client.chat.postMessage({ channel: CHANNEL, text: 'card' });
    const url = fake.issueResponseUrl({ channel: CHANNEL, user: 'U0ADA', messageTs: ts ?? '' });
    const post = async (body: object) => {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.body.dump();
      return res.statusCode;
    };
    expect(await post({ text: 'just for you' })).toBe(200);
    expect(await post({ response_type: 'in_channel', text: 'for everyone' })).toBe(200);
    expect(await post({ replace_original: true, text: 'card, replaced' })).toBe(200);
    expect(fake.ephemerals('U0ADA').map((m) => m.text)).toEqual(['just for you']);
    expect(fake.messages(CHANNEL).map((m) => m.text)).toEqual(['card, replaced', 'for everyone']);
    expect(await post({ delete_original: true })).toBe(200);
    expect(fake.messages(CHANNEL).map((m) => m.text)).toEqual(['for everyone']);
    expect(await post({ text: 'fifth' })).toBe(200);
    expect(await post({ text: 'sixth' })).toBe(404);
    expect(fake.callsTo('response_url')).toHaveLength(6);
  });

  it('waits for calls, times out with the calls seen, and resets', async () => {
    const waiting = fake.waitForCall('chat.postMessage', (args) => args.text === 'later');
    setTimeout(() => void client.chat.postMessage({ channel: CHANNEL, text: 'later' }), 20);
    expect((await waiting).args).toMatchObject({ channel: CHANNEL, text: 'later' });
    await expect(fake.waitFor((calls) => calls.length > 5, 50)).rejects.toThrow(/calls so far: chat.postMessage/);
    fake.reset();
    expect([fake.calls, fake.messages(CHANNEL), fake.violations]).toEqual([[], [], []]);
  });
});
