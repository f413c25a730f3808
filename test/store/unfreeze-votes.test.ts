/**
 * Unfreeze votes on a real Redis: a proposal voted on before the card said "unfreeze" (its votes
 * stored as `release`) still reaches its quorum when the next approver clicks Unfreeze.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlStore, UnfreezeStore } from '../../src/store/controls.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-unfreeze-votes-${randomUUID().slice(0, 8)}`;
let redis: Redis;
let controls: ControlStore;
let unfreeze: UnfreezeStore;
beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  controls = new ControlStore(redis, prefix);
  unfreeze = new UnfreezeStore(redis, prefix, controls);
  await controls.setFreeze({ by: 'U0OPS', at: 1, reason: 'incident' });
});
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

describe('an unfreeze proposal stored before the rename', () => {
  it('counts an old "release" vote with a new "unfreeze" vote, and reads both as unfreeze', async () => {
    const { proposal } = await unfreeze.open({ id: 'u-old', by: 'U0A1', at: 2 });
    // What the earlier version wrote for the first approver's click.
    await redis.hset(`${prefix}:unfreeze`, 'vote:U0A1', 'release');
    expect((await unfreeze.proposal())?.votes).toEqual({ U0A1: 'unfreeze' });
    expect(await unfreeze.vote(proposal.id, 'U0A2', 'unfreeze', 2)).toEqual({
      outcome: 'decided',
      choice: 'unfreeze',
      now: true,
    });
    expect((await unfreeze.proposal())?.decided).toBe('unfreeze');
  });
});
