/**
 * The start's one cancel (store/lua/includes/start-cancel.lua), whatever refused the start —
 * screening or the address book: a final move like every other (it masks the personal data the
 * record keeps, as window-cancel-mask.test.ts shows for a waiting approval's cancel), reporting
 * the approval's real view; and every time decision in the start reads Redis's clock, never the
 * worker's (DESIGN "Destinations and time": a worker's clock may run ahead or behind).
 */
import { describe, expect, it } from 'vitest';
import type { StateChange } from '../../src/store/requests.js';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest, buildSealedRequest, CALLS } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('start-cancel');
const DAY = 86_400_000;
const REQUIRED = { mode: 'required' as const, maxAgeMs: 7 * DAY };

/** A store whose worker's clock is `skewMs` off Redis's (both run on this machine). */
function storeAt(skewMs: number, changes: StateChange[] = []) {
  return new RequestStore(
    redis,
    prefix,
    () => Date.now() + skewMs,
    (c) => changes.push(c),
  );
}
const plain = storeAt(0);

async function redisNow(): Promise<number> {
  return plain.redisNow();
}

/** A sanctions list that lists nothing, last confirmed `ageMs` ago by Redis's clock. */
async function listConfirmed(ageMs: number) {
  await redis.hset(plain.keys.screeningMeta, {
    name: 'OFAC SDN',
    published: '2026-11-27',
    sha256: 'a'.repeat(64),
    confirmedAt: String((await redisNow()) - ageMs),
  });
}

async function approvedTransfer(): Promise<string> {
  const id = await plain.nextId();
  expect((await plain.create(buildFreshRequest(id))).outcome).toBe('created');
  expect(await plain.vote(id, 'U0APPROVER1')).toBe('approved');
  expect(await redis.hget(plain.keys.execution(`${id}.1`), 'dest')).toBeTruthy();
  return id;
}

describe('SCREENING_MAX_AGE at the start follows Redis time, not the worker’s clock', () => {
  it('a worker whose clock runs 30 days ahead still starts on a list confirmed a day ago', async () => {
    await listConfirmed(DAY);
    const id = await approvedTransfer();
    const started = await storeAt(30 * DAY).executions.start(`${id}.1`, 'ahead', 'job-ahead', { screening: REQUIRED });
    expect(started.token === undefined ? started.cancelled : 'started').toBe('started');
  });

  it('a worker whose clock runs 30 days behind never pays on a list confirmed 8 days ago', async () => {
    await listConfirmed(8 * DAY);
    const id = await approvedTransfer();
    const started = await storeAt(-30 * DAY).executions.start(`${id}.1`, 'behind', 'job-behind', {
      screening: REQUIRED,
    });
    expect(started.token === undefined ? started.cancelled?.code : 'started').toBe('screening_stale');
    expect((await plain.executions.get(`${id}.1`))?.state).toBe('cancelled');
  });
});

describe('a start that cancels is a final move', () => {
  it('masks the full account number in the record, execution 1 and the history, as every other final move', async () => {
    const id = await plain.nextId();
    const now = Date.now();
    const sealed = buildSealedRequest('beneficiary', {
      id,
      requiredApprovals: 1,
      createdAt: now,
      expiresAt: now + 60_000,
    });
    expect(JSON.stringify(sealed.call)).toContain('0123456789');
    expect((await plain.create(sealed)).outcome).toBe('created');
    expect(await plain.vote(id, 'U0APPROVER1')).toBe('approved');
    // Sealed with an address-book entry that is gone: the start may never run it.
    await redis.hset(plain.keys.execution(`${id}.1`), 'entry', 'E-gone');
    const started = await plain.executions.start(`${id}.1`, 'w', 'job-mask');
    expect(started.token === undefined ? started.cancelled?.code : 'started').toBe('entry_removed');
    expect((await plain.history(id)).at(-1)).toMatchObject({
      event: 'cancelled',
      by: 'rampart',
      code: 'entry_removed',
    });
    const stored = JSON.stringify([
      await redis.hgetall(plain.keys.approval(id)),
      await redis.hgetall(plain.keys.execution(`${id}.1`)),
      await redis.lrange(plain.keys.history(id), 0, -1),
    ]);
    expect(stored).not.toContain('0123456789');
    expect(stored).toContain('6789');
    expect((await plain.get(id))?.sealed.redacted).toBeDefined();
  });

  it('a screening cancel masks too and says so the same way: one answer, its code, the approval done', async () => {
    const id = await approvedTransfer();
    await redis.sadd(plain.keys.screeningList, (await redis.hget(plain.keys.execution(`${id}.1`), 'dest')) ?? '');
    await redis.hset(plain.keys.screeningMeta, { name: 'OFAC SDN', published: '2026-11-28' });
    const started = await plain.executions.start(`${id}.1`, 'w', 'job-listed', {
      screening: { mode: 'on', maxAgeMs: DAY },
    });
    expect(started.token === undefined ? started.cancelled : undefined).toEqual({
      why: 'listed on OFAC SDN of 2026-11-28; nothing sent',
      code: 'screening_listed',
      shape: 'single',
    });
    // The code is stored beside the words, on the outcome and the history entry, for the readers
    // that tell a screening cancel (app/notices/notify.ts, app/request-again.ts).
    expect((await plain.executions.get(`${id}.1`))?.outcome).toEqual({
      message: 'listed on OFAC SDN of 2026-11-28; nothing sent',
      code: 'screening_listed',
    });
    expect((await plain.history(id)).at(-1)).toMatchObject({
      event: 'cancelled',
      by: 'rampart',
      detail: 'listed on OFAC SDN of 2026-11-28; nothing sent',
      code: 'screening_listed',
      execution: `${id}.1`,
    });
    expect((await plain.get(id))?.approvalState).toBe('done');
    expect((await plain.get(id))?.sealed.redacted).toBeDefined();
  });

  it("reports the approval's own view: a batch whose last row the address book cancels after a paid row is succeeded", async () => {
    const changes: StateChange[] = [];
    const store = storeAt(0, changes);
    const id = await store.nextId('B');
    const call = CALLS.transfer;
    expect((await store.create({ ...buildFreshRequest(id), call }, { shape: 'batch' }, [call, call])).outcome).toBe(
      'created',
    );
    expect(await store.vote(id, 'U0APPROVER1')).toBe('approved');
    await redis.hset(store.keys.approval(id), 'funded', '1');
    // The receiver is listed by the test above: these rows meet the address book alone.
    const off = { screening: { mode: 'off' as const, maxAgeMs: DAY } };
    const first = await store.executions.start(`${id}.1`, 'w', 'job-row-1', off);
    if (first.token === undefined) throw new Error(`row 1 did not start: ${JSON.stringify(first)}`);
    expect((await store.executions.finish(`${id}.1`, first.token, 'succeeded', { hash: '0xabc' })).ok).toBe(true);
    await redis.hset(store.keys.execution(`${id}.2`), 'entry', 'E-gone');
    changes.length = 0;
    const second = await store.executions.start(`${id}.2`, 'w', 'job-row-2', off);
    expect(second.token === undefined ? second.cancelled?.code : 'started').toBe('entry_removed');
    expect((await store.get(id))?.state).toBe('succeeded');
    expect(changes.map((c) => c.state)).toEqual(['succeeded']);
  });
});
