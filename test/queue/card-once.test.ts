/**
 * A card posted but not recorded is never posted twice: the notify job's recording
 * step fails once after Slack took the card; the retried job finds the card in the approvals
 * channel by its metadata and records it, and the channel holds one card.
 */

import { randomUUID } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../devkit/index.js';
import { slackNotifier } from '../../src/adapters/slack/notifier.js';
import { slackClientOptions } from '../../src/adapters/slack/web-api/client-options.js';
import { notify } from '../../src/app/notices/notify.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { createLogger } from '../../src/log.js';
import { RequestStore } from '../../src/store/requests.js';
import { createSealed } from '../support/factories.js';
import { APPROVALS, BOT_TOKEN, blocksText, deleteKeys, PEOPLE, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

const prefix = `test-card-once-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack({
    botToken: BOT_TOKEN,
    people: [{ id: PEOPLE.requester, name: 'requester', real_name: 'Requester', tz: 'Africa/Lagos' }],
    channels: [{ id: APPROVALS, name: 'treasury-approvals' }],
  });
});
afterAll(async () => {
  await fake.close();
  await redis.quit();
  await deleteKeys(prefix);
});

/** The store as production has it, except that recording a thread reply fails the first time. */
class ReplyRecordFailsOnce extends RequestStore {
  failures = 1;
  override async markPosted(id: string, what: string, ts: string): Promise<boolean> {
    if (what.startsWith('reply-') && !what.endsWith('-attempt') && this.failures-- > 0)
      throw new Error('Redis went away while recording the reply');
    return super.markPosted(id, what, ts);
  }
}

/** The store as production has it, except that recording the card fails the first time. */
class RecordFailsOnce extends RequestStore {
  failures = 1;
  override async setCard(id: string, card: { channel: string; ts: string }): Promise<void> {
    if (this.failures-- > 0) throw new Error('Redis went away while recording the card');
    await super.setCard(id, card);
  }
}

async function pendingRequest(store: RequestStore): Promise<string> {
  const call: ServiceCall = {
    kind: 'transfer',
    body: { wallet_id: 'wal_ops_7f3a', amount: 5, receiver: '0xabc', asset: 'base:usdc' },
  };
  return createSealed(store, call, {
    display: { walletAlias: 'ops', amountText: '5.00', assetCode: 'USDC', chain: 'base' },
    requester: PEOPLE.requester,
    reason: 'card once',
    expiresAt: Date.now() + 3_600_000,
    rule: 'one approval',
  });
}

/** The notify job's deps: the real Slack notifier against the fake, over `store`. */
function notifyDeps(store: RequestStore) {
  const log = createLogger({ level: 'debug' }, new LogSink());
  const client = new WebClient(BOT_TOKEN, slackClientOptions(fake.apiUrl));
  return {
    notifier: slackNotifier({ client, approvalsChannel: APPROVALS, log }),
    store,
    log,
    approvalsChannel: APPROVALS,
  };
}

it('a retried card job after a failed recording records the card Slack already has, and posts no second one', async () => {
  const store = new RecordFailsOnce(redis, prefix);
  const deps = notifyDeps(store);
  const id = await pendingRequest(store);
  await expect(notify(deps, { requestId: id, kind: 'card' })).rejects.toThrow(/recording the card/);
  expect(fake.messages(APPROVALS)).toHaveLength(1);
  await store.release(id, 'card'); // the 30 s claim of the failed job, as if it had run out
  await notify(deps, { requestId: id, kind: 'card' });
  const cards = fake.messages(APPROVALS).filter((m) => blocksText(m).includes(id));
  expect(cards).toHaveLength(1);
  expect((await store.get(id))?.card).toEqual({ channel: APPROVALS, ts: cards[0]?.ts });
  // A later refresh updates that one card.
  await notify(deps, { requestId: id, kind: 'card' });
  expect(fake.messages(APPROVALS)).toHaveLength(1);
});

it('a retried outcome job after a failed recording finds the reply in the thread and posts no second one', async () => {
  const store = new ReplyRecordFailsOnce(redis, prefix);
  const deps = notifyDeps(store);
  const id = await pendingRequest(store);
  await notify(deps, { requestId: id, kind: 'card' });
  await store.transition(id, ['pending'], 'cancelled', { event: 'cancelled', by: PEOPLE.requester });
  await expect(notify(deps, { requestId: id, kind: 'outcome' })).rejects.toThrow(/recording the reply/);
  const card = (await store.get(id))?.card;
  if (!card) throw new Error('no card recorded');
  expect(fake.thread(APPROVALS, card.ts)).toHaveLength(1);
  await notify(deps, { requestId: id, kind: 'outcome' });
  await notify(deps, { requestId: id, kind: 'outcome' });
  const replies = fake.thread(APPROVALS, card.ts);
  expect(replies).toHaveLength(1);
  expect(await store.wasPosted(id, 'reply-cancelled')).toBe(true);
});
