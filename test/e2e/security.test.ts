/**
 * What Rampart refuses: requests with a bad or missing signature or a timestamp older
 * than five minutes, requests from another workspace, and crafted button values; none of them
 * may call the Web API, post to a response_url, call the service or write to Redis; and that no
 * secret reaches a message or a log line. The probes are tested in test/http/probes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { SendOptions, StoredEphemeral } from '../../devkit/index.js';
import {
  APPROVALS,
  blocksText,
  driverFor,
  eventually,
  GENERAL,
  type Harness,
  lastView,
  PEOPLE,
  SECRETS,
} from '../support/harness.js';
import { quiescent } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const ASKER = PEOPLE.requester;
const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

/** Everything a refused request could have touched. */
interface Snapshot {
  webApiCalls: string[];
  received: number;
  keys: string[];
  approvals: number;
}

async function snapshot(h: Harness): Promise<Snapshot> {
  const keys = await h.rampart.redis.keys(`${h.prefix}:*`);
  return {
    webApiCalls: h.fake.calls.map((c) => c.method),
    received: h.sandbox.state.received.length,
    // BullMQ's workers write their queue's meta once at start and a stalled-check marker on a
    // timer, and consume a delayed job's marker when they get to it (the snapshot job
    // queued at start), and a worker's start-up migration sweep marks the record format it
    // completed (store/migration-sweep.ts), whatever Slack sends: everything else is the app's doing.
    keys: keys
      .filter((k) => !/:bull:[^:]+:(meta|stalled-check|marker)$/.test(k) && k !== `${h.prefix}:migrated`)
      .sort(),
    approvals: h.fake.messages(APPROVALS).length,
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('request signatures', () => {
  const h = useHarness('security');

  const refusals: [string, () => SendOptions][] = [
    ['signed with the wrong secret', () => ({ signingSecret: 'not-the-signing-secret' })],
    ['signed more than five minutes ago', () => ({ timestampSeconds: nowSeconds() - 5 * 60 - 30 })],
    ['not signed', () => ({ unsigned: true })],
  ];

  for (const [how, options] of refusals) {
    it(`refuses slash commands ${how}, with no side effect`, async () => {
      const before = await snapshot(h);
      const ephemerals = h.fake.ephemerals(ASKER).length;
      for (const [command, text] of [
        ['/balance', 'ops'],
        ['/rate', ''],
        ['/lookup', ''],
        ['/transfer', `25 base:usdc to ${RECEIVER} from ops for invoice 7`],
      ] as const) {
        const res = await h.driver.command(ASKER, command, text, GENERAL, options());
        expect(res.status, `${command} ${how}`).toBe(401);
      }
      await quiescent(h);
      expect(await snapshot(h)).toEqual(before);
      expect(h.fake.ephemerals(ASKER)).toHaveLength(ephemerals);
    });
  }

  it('accepts a request signed four minutes ago (the window is five)', async () => {
    const before = h.fake.ephemerals(ASKER).length;
    const res = await h.driver.command(ASKER, '/rate', '', GENERAL, { timestampSeconds: nowSeconds() - 4 * 60 });
    expect(res.status).toBe(200);
    const answer = await eventually(() => h.fake.ephemerals(ASKER)[before], 5000, '/rate answer');
    expect(answer.text).toBe('Onramp rate');
  });

  it('refuses a forged "Share in channel" click: nothing is posted', async () => {
    const before = h.fake.ephemerals(ASKER).length;
    await h.driver.command(ASKER, '/rate', '');
    const answer = await eventually(() => h.fake.ephemerals(ASKER)[before], 5000, '/rate answer');
    const snap = await snapshot(h);
    const res = await h.driver.click(
      ASKER,
      { action_id: 'share_in_channel', message: answer },
      { signingSecret: 'not-the-signing-secret' },
    );
    expect(res.status).toBe(401);
    await quiescent(h);
    expect(await snapshot(h)).toEqual(snap);
    expect(h.fake.messages(GENERAL)).toHaveLength(0);
  });

  // Last in this block: the signed control leaves workers busy with the card.
  it('refuses a forged transfer submission: no request in Redis, no card; the same one signed goes through', async () => {
    await h.driver.command(ASKER, '/transfer', `25 base:usdc to ${RECEIVER} from ops for invoice 7`);
    const form = await eventually(() => lastView(h.fake, ASKER), 3000, 'transfer modal');
    // The modal's asset list is refreshed after it opens (a balance call, views.update).
    await quiescent(h);
    const before = await snapshot(h);
    for (const [, options] of refusals) {
      const res = await h.driver.submitView(ASKER, form, {}, options());
      expect(res.status).toBe(401);
    }
    await quiescent(h);
    expect(await snapshot(h)).toEqual(before);
    expect(before.keys.some((k) => k.includes(':req:'))).toBe(false);

    // The control: signed correctly, the same submission does write and post.
    const signed = await h.driver.submitView(ASKER, form, {});
    expect(signed.body, JSON.stringify(signed.body)).toMatchObject({ response_action: 'clear' });
    await eventually(() => h.fake.messages(APPROVALS)[before.approvals], 5000, 'approval card');
    const after = await snapshot(h);
    expect(after.keys.some((k) => k.includes(':req:'))).toBe(true);
  });
});

describe('crafted button values and service credentials', () => {
  const h = useHarness('security-values');

  async function rateAnswer(): Promise<StoredEphemeral> {
    const before = h.fake.ephemerals(ASKER).length;
    await h.driver.command(ASKER, '/rate', '');
    return eventually(() => h.fake.ephemerals(ASKER)[before], 5000, '/rate answer');
  }

  it('will not share a lookup (personal data) through a forged button value, nor act on malformed JSON', async () => {
    const answer = await rateAnswer();
    const lookups = () => h.sandbox.state.received.filter((r) => r.path === '/lookup').length;
    const calls = lookups();
    for (const value of [JSON.stringify({ command: 'lookup', args: '058 0123456789' }), 'not json {']) {
      const before = h.fake.ephemerals(ASKER).length;
      const res = await h.driver.click(ASKER, { action_id: 'share_in_channel', message: answer, value });
      expect(res.status).toBe(200);
      const reply = await eventually(() => h.fake.ephemerals(ASKER)[before], 5000, 'refusal');
      expect(reply.text).toBe('This button is from an older version of Rampart; run the command again.');
    }
    expect(h.fake.messages(GENERAL)).toHaveLength(0);
    expect(lookups()).toBe(calls);
  });

  it("names the setting, never the key, when the service refuses Rampart's credentials", async () => {
    const WRONG_KEY = 'wrong-service-key-9d1f';
    const other = await h.startAnother({ ROLE: 'web', SERVICE_API_KEY: WRONG_KEY });
    const driver = driverFor(h.fake, other.port);
    const before = h.fake.ephemerals(ASKER).length;
    await driver.command(ASKER, '/balance', 'ops');
    const answer = await eventually(() => h.fake.ephemerals(ASKER)[before], 5000, 'refusal');
    expect(answer.text).toBe(
      "The wallet service refused Rampart's credentials: “invalid x-service-key”. Ask an admin to check SERVICE_API_KEY.",
    );
    for (const secret of [WRONG_KEY, ...SECRETS]) {
      expect(blocksText(answer)).not.toContain(secret);
      expect(h.logs.text).not.toContain(secret);
    }
    expect(Math.max(...driver.ackTimes)).toBeLessThan(3000);
  });
});

describe('requests from another workspace', () => {
  // The fake Slack's workspace is T0FAKE0001; this Rampart is installed for T0OTHER only.
  const h = useHarness('security-team', { SLACK_TEAM_ID: 'T0OTHER' });

  it('answers each command with a refusal and does nothing else', async () => {
    const before = await snapshot(h);
    for (const [command, text] of [
      ['/balance', 'ops'],
      ['/rate', ''],
      ['/lookup', ''],
      ['/lookup', '058 0123456789'],
      ['/transfer', `25 base:usdc to ${RECEIVER} from ops for invoice 7`],
    ] as const) {
      const res = await h.driver.command(ASKER, command, text);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ response_type: 'ephemeral', text: 'Rampart is not installed for this workspace.' });
    }
    await quiescent(h);
    const after = await snapshot(h);
    expect(after.received).toBe(before.received);
    expect(after.keys).toEqual(before.keys);
    expect(after.approvals).toBe(before.approvals);
    // Bolt authorises (auth.test) before any middleware runs; nothing else reached Slack.
    expect(after.webApiCalls.slice(before.webApiCalls.length).filter((m) => m !== 'auth.test')).toEqual([]);
    expect(h.fake.callsTo('response_url')).toHaveLength(0);
    expect(h.logs.text).toContain('refused a request from another workspace');
  });

  it('acknowledges a button click without acting on it', async () => {
    const message: StoredEphemeral = {
      ts: '1700000000.000100',
      channel: GENERAL,
      user: h.fake.settings.botUserId,
      bot_id: h.fake.settings.botId,
      recipient: ASKER,
      text: 'Onramp rate',
      blocks: [
        {
          type: 'actions',
          block_id: 'share',
          elements: [
            {
              type: 'button',
              action_id: 'share_in_channel',
              text: { type: 'plain_text', text: 'Share in channel' },
              value: JSON.stringify({ command: 'rate', args: '' }),
            },
          ],
        },
      ],
    };
    const before = await snapshot(h);
    const res = await h.driver.click(ASKER, { action_id: 'share_in_channel', message });
    expect(res.status).toBe(200);
    await quiescent(h);
    const after = await snapshot(h);
    expect(after.received).toBe(before.received);
    expect(h.fake.callsTo('response_url')).toHaveLength(0);
    expect(h.fake.messages(GENERAL)).toHaveLength(0);
  });
});
