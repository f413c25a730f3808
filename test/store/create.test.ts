/**
 * store.create is one atomic step with the form's claim: a create Redis runs after its
 * deadline stores nothing and leaves the form free to be sent again; a create whose answer came
 * too late for the form is withdrawn, because the person was told nothing was submitted.
 */
import { expect, it } from 'vitest';
import { type NewRequest, sealRequest } from '../../src/app/post-request.js';
import { SubmitBudget } from '../../src/app/submit-budget.js';
import { loadConfig } from '../../src/config.js';
import type { SealedRequest, ServiceCall } from '../../src/domain/request.js';
import { createLogger } from '../../src/log.js';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { eventually } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('create');
const store = new RequestStore(redis, prefix);

const call: ServiceCall = { kind: 'transfer', body: { wallet_id: 'w', amount: 1, receiver: 'r', asset: 'base:usdc' } };
const sealedWith = (id: string): SealedRequest => buildFreshRequest(id, { call });
const keysOf = async (id: string) => redis.keys(`${prefix}:req:${id}*`);

it('creates the claim, the record, its history and both indexes in one step; a second create of the form is "taken"', async () => {
  const { id, redisNowMs } = await store.allocate();
  expect(await store.create(sealedWith(id), { submission: 'V1', notAfterRedisMs: redisNowMs + 5_000 })).toEqual({
    outcome: 'created',
    id,
  });
  expect((await store.get(id))?.state).toBe('pending');
  expect((await store.history(id)).map((e) => e.event)).toEqual(['requested']);
  expect(await store.openIds()).toContain(id);
  expect(await store.recentIds()).toContain(id);
  expect(await store.submittedAs('V1')).toBe(id);
  const other = await store.nextId();
  expect(await store.create(sealedWith(other), { submission: 'V1' })).toEqual({ outcome: 'taken', id });
  expect(await keysOf(other)).toEqual([]);
});

it('stores nothing when Redis runs the create after its deadline, and the same form can then be sent', async () => {
  const { id, redisNowMs } = await store.allocate();
  expect(await store.create(sealedWith(id), { submission: 'V2', notAfterRedisMs: redisNowMs - 1 })).toEqual({
    outcome: 'late',
  });
  expect(await keysOf(id)).toEqual([]);
  expect(await store.submittedAs('V2')).toBeUndefined();
  expect(await store.openIds()).not.toContain(id);
  expect((await store.create(sealedWith(id), { submission: 'V2' })).outcome).toBe('created');
});

it('withdraws a create whose answer reached the form after it had said "nothing was submitted"', async () => {
  // Redis runs the create at once, but its answer is held back past the form's answer time.
  const slowAnswers = new RequestStore(redis, prefix);
  const realCreate = slowAnswers.create.bind(slowAnswers);
  let createdId = '';
  slowAnswers.create = async (sealed, options) => {
    const r = await realCreate(sealed, options);
    createdId = sealed.id;
    // The answer arrives well after the form's answer deadline below, however loaded the machine.
    await new Promise((done) => setTimeout(done, 2_500));
    return r;
  };
  const logs = new LogSink();
  const deps = {
    store: slowAnswers,
    now: Date.now,
    config: loadConfig({ NODE_ENV: 'test' }),
    log: createLogger({ level: 'debug' }, logs),
  };
  const r: NewRequest = {
    call,
    display: {},
    requester: 'U1',
    reason: 'slow answer',
    origin: undefined,
    required: 1,
    rule: 'r',
    stepUp: false,
    submission: 'V3',
  };
  const result = await sealRequest(deps, r, new SubmitBudget({ createByMs: 1_000, answerByMs: 1_200 }));
  expect(result).toEqual({ kind: 'nothing' });
  const withdrawn = await eventually(async () => {
    const record = createdId ? await store.get(createdId) : undefined;
    return record?.state === 'cancelled' ? record : undefined;
  });
  expect(withdrawn.state).toBe('cancelled');
  expect((await store.history(createdId)).at(-1)?.detail).toMatch(/told nothing was submitted/);
  expect(await store.openIds()).not.toContain(createdId);
});
