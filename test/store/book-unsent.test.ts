/**
 * What removing an address-book entry stops (store/requests.ts unsentByEntry): the queued
 * executions sealed with it, over every open approval, pending ones included; an execution that
 * left `queued` and a closed approval are not counted, nor a payment to an address outside the book.
 */
import { describe, expect, it } from 'vitest';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest, CALLS } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('book-unsent');
const store = new RequestStore(redis, prefix);
const call = CALLS.transfer;
if (call.kind !== 'transfer') throw new Error('the factory transfer changed');
const outside = { ...call, body: { ...call.body, receiver: '0x52908400098527886e0f7030069857d2e4169ee7' } };

describe('unsentByEntry', () => {
  it('counts the queued executions of open approvals sealed with each entry, and nothing else', async () => {
    const by = { addedBy: 'U0A', approvedBy: 'U0B', requestId: 'R-0' };
    const added = await store.book.add(
      [{ name: 'Counted', chain: 'base', address: call.body.receiver, wallets: '*' }],
      by,
      0,
    );
    if (!added.ok) throw new Error('not added');
    const entry = added.ids[0] ?? '';
    expect(await store.unsentByEntry()).toEqual(new Map());

    const single = await store.nextId();
    await store.create(buildFreshRequest(single));
    const batch = await store.nextId('B');
    await store.create(buildFreshRequest(batch), { shape: 'batch' }, [call, outside, call, call]);
    const closed = await store.nextId();
    await store.create(buildFreshRequest(closed));
    await store.decide(closed, 'denied', { event: 'denied', by: 'U0B' });
    // Row 4 already left the queue (its start cancelled it, say).
    await redis.hset(`${prefix}:exec:${batch}.4`, 'state', 'cancelled');

    expect(await store.unsentByEntry()).toEqual(new Map([[entry, 3]]));
  });
});
