/**
 * An Approve click with VELOCITY_LIMITS set: the vote script reads the request's subject from the
 * record itself (stored at creation), so the click sends the vote first; the limits still hold at
 * quorum for a request and a batch, the held sentence names the broken rule, and a record stored
 * before the subject was kept is read once and voted on with it.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { approve } from '../../src/app/decide.js';
import { velocitySubject } from '../../src/domain/velocity.js';
import { RequestStore } from '../../src/store/requests.js';
import { REDIS_URL } from '../support/harness.js';
import { APPROVERS, sealBatch, useWorld } from './support.js';

// For ops and USDC the wallet's own rules (indexes 2 and 3) replace the '*' one (index 1).
const LIMITS = '*:USDT=1/24h,*:USDC=5/24h,ops:USDC=1000/24h,ops:USDC=100/7d';
const HELD_7D = (left: string, amount: string) =>
  `This is over the limit. Limit for ops: 100.00 USDC per 7 d. ${left} left, and this request is ${amount} USDC: ask for at most what is left, or wait for earlier payments to leave the 7 d window.`;

const w = useWorld('velocity-vote', { VELOCITY_LIMITS: LIMITS });

const A1 = APPROVERS[0] as string;

/** Empties the ops USDC ledger: each test starts with the whole 100.00 left. */
async function clearLedger(): Promise<void> {
  const key = w.controls.ledgerKey({ walletId: 'wal_ops_7f3a', code: 'USDC' });
  await w.redis.del(key, `${key}:amounts`);
}

/** Minor units the ledger holds for `id`, or undefined when it holds nothing for it. */
async function inLedger(id: string): Promise<string | undefined> {
  const key = w.controls.amountsKey({ walletId: 'wal_ops_7f3a', code: 'USDC' });
  return (await w.redis.hget(key, id)) ?? undefined;
}

/** A record as Rampart stored it before it kept the velocity subject on the approval. */
const asBeforeUpgrade = (id: string) => w.redis.hdel(w.store.keys.approval(id), 'velocity');

/** The names of the commands sent on a connection, in order. */
function recordingRedis(): { redis: Redis; sent: string[] } {
  const sent: string[] = [];
  class Recording extends Redis {
    override sendCommand(...args: Parameters<Redis['sendCommand']>): ReturnType<Redis['sendCommand']> {
      sent.push(args[0].name.toLowerCase());
      return super.sendCommand(...args);
    }
  }
  return { redis: new Recording(REDIS_URL, { maxRetriesPerRequest: null }), sent };
}

describe('the vote with VELOCITY_LIMITS set', () => {
  it('stores the subject on the record at creation, as velocitySubject computes it', async () => {
    const id = await sealBatch(w, [12.5], 'R');
    const field = await w.redis.hget(w.store.keys.approval(id), 'velocity');
    const record = await w.store.get(id);
    const subject = record ? velocitySubject(record.sealed) : undefined;
    expect(JSON.parse(field ?? '{}')).toEqual({ ...subject, units: subject?.units.toString() });
  });

  it('makes no read before the vote script: the click sends the vote first', async () => {
    const { redis, sent } = recordingRedis();
    const deps = { ...w.deps, store: new RequestStore(redis, w.prefix), controls: w.controls };
    try {
      await clearLedger();
      // The first vote on this connection loads the script (EVALSHA, NOSCRIPT, EVAL): not counted.
      expect((await approve(deps, await sealBatch(w, [1.01], 'R'), A1)).kind).toBe('approved');
      const id = await sealBatch(w, [1.02], 'R');
      sent.length = 0;
      expect((await approve(deps, id, A1)).kind).toBe('approved');
      expect(sent[0]).toBe('evalsha');
      expect(await inLedger(id)).toBe('1020000');
    } finally {
      await redis.quit();
    }
  });

  it('holds a request at quorum over its own rule, naming that rule (not the first configured)', async () => {
    await clearLedger();
    const first = await sealBatch(w, [60], 'R');
    expect((await approve(w.deps, first, A1)).kind).toBe('approved');
    const over = await sealBatch(w, [50], 'R');
    const r = await approve(w.deps, over, A1);
    expect(r).toEqual({ kind: 'over_limit', requestId: over, message: HELD_7D('40.00', '50.00') });
    const record = await w.store.get(over);
    expect(record?.state).toBe('pending');
    expect(record?.votes).toEqual([]);
    expect(record?.held).toBe(HELD_7D('40.00', '50.00'));
    expect(await inLedger(over)).toBeUndefined();
    expect((await approve(w.deps, await sealBatch(w, [40], 'R'), A1)).kind).toBe('approved');
  });

  it('holds a batch whose total is over the limit; one that fits is approved and reserves its total', async () => {
    await clearLedger();
    const over = await sealBatch(w, [60, 50]);
    expect(await approve(w.deps, over, A1)).toEqual({
      kind: 'over_limit',
      requestId: over,
      message: HELD_7D('100.00', '110.00'),
    });
    expect((await w.store.get(over))?.held).toBe(HELD_7D('100.00', '110.00'));
    const fits = await sealBatch(w, [60, 40]);
    expect((await approve(w.deps, fits, A1)).kind).toBe('approved');
    expect(await inLedger(fits)).toBe('100000000');
  });
});

describe('a record stored before the subject was kept', () => {
  it('is read once and voted on with its subject: counted once, in the ledger', async () => {
    await clearLedger();
    const id = await sealBatch(w, [30], 'R');
    await asBeforeUpgrade(id);
    expect((await approve(w.deps, id, A1)).kind).toBe('approved');
    const approvals = (await w.store.history(id)).filter((e) => e.event === 'approval');
    expect(approvals).toHaveLength(1);
    expect(await inLedger(id)).toBe('30000000');
  });

  it('still respects the limits: held with the right sentence, its vote not counted', async () => {
    const id = await sealBatch(w, [80], 'R');
    await asBeforeUpgrade(id);
    expect(await approve(w.deps, id, A1)).toEqual({
      kind: 'over_limit',
      requestId: id,
      message: HELD_7D('70.00', '80.00'),
    });
    expect((await w.store.get(id))?.votes).toEqual([]);
    expect((await w.store.history(id)).filter((e) => e.event === 'approval')).toEqual([]);
  });

  it('answers needs_subject to a vote that passes no subject, and counts nothing', async () => {
    const id = await sealBatch(w, [1], 'R');
    await asBeforeUpgrade(id);
    const v = await w.store.castVote(id, A1, w.controls.voteControls(w.deps.config.controls.velocity));
    expect(v.outcome).toBe('needs_subject');
    expect((await w.store.get(id))?.votes).toEqual([]);
    expect(await inLedger(id)).toBeUndefined();
  });
});
