/**
 * The start script's cooling-off of a new beneficiary (store/lua/includes/book.lua
 * beneficiaryCheck) against its domain function (domain/address-book.ts beneficiaryStartRule)
 * over a grid of facts: no cooling-off, cooled, or still cooling; the offramp approved just now or
 * longer ago than the cooling-off; a single or a batch row. The script must answer exactly what
 * the function answers: start, wait, or cancel.
 */
import { describe, expect, it } from 'vitest';
import { beneficiaryStartRule } from '../../src/domain/address-book.js';
import type { SealedRequest } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest, CALLS } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';
import { ruleAnswerOf, startAnswerOf } from './start-answers.js';

const { redis, prefix } = useRedisPrefix('beneficiary-start');
const store = new RequestStore(redis, prefix);
const HOUR = 3_600_000;
const call = CALLS.offramp;
if (call.kind !== 'offramp') throw new Error('the factory offramp changed');
const BENEFICIARY = call.body.beneficiary_id;

type Cooling = 'none' | 'cooled' | 'cooling';
type Approved = 'now' | 'long-ago';
type Shape = 'single' | 'batch';

const grid: [Cooling, Approved, Shape][] = [];
for (const c of ['none', 'cooled', 'cooling'] as const)
  for (const a of ['now', 'long-ago'] as const) for (const s of ['single', 'batch'] as const) grid.push([c, a, s]);

async function stage(cooling: Cooling, approved: Approved, shape: Shape) {
  const coolingKey = `${prefix}:beneficiaries:cooling`;
  await redis.del(coolingKey);
  const now = Date.now();
  // Registered an hour before it became (or becomes) usable.
  const usableAt = cooling === 'cooled' ? now - HOUR : now + HOUR / 2;
  const facts = cooling === 'none' ? undefined : { approvedAt: usableAt - HOUR, usableAt };
  if (facts) await redis.hset(coolingKey, BENEFICIARY, JSON.stringify(facts));
  const id = await store.nextId(shape === 'batch' ? 'B' : 'R');
  const sealed: SealedRequest = { ...buildFreshRequest(id), call };
  await store.create(sealed, { shape }, [call]);
  expect(await store.vote(id, 'U0APPROVER1')).toBe('approved');
  const decidedAt = approved === 'now' ? now : now - 2 * HOUR;
  await redis.hset(`${prefix}:req:${id}`, 'decidedAt', String(decidedAt));
  const expected = beneficiaryStartRule(facts, { approvedAt: decidedAt, row: shape === 'batch' }, Date.now());
  return { id, expected };
}

describe('START and beneficiaryStartRule agree', () => {
  it.each(grid)('cooling-off %s, offramp approved %s, %s', async (cooling, approved, shape) => {
    const { id, expected } = await stage(cooling, approved, shape);
    const answer = startAnswerOf(await store.executions.start(`${id}.1`, 'grid-worker', 'grid-job'));
    // A batch row the cooling-off lets through meets the batch's own turn and funding checks next.
    const passed = shape === 'batch' && ['refused: turn', 'refused: funding'].includes(answer) ? 'start' : answer;
    expect(passed).toBe(ruleAnswerOf(expected));
    if (answer.startsWith('cancel')) expect((await store.get(id))?.executions[0]?.state).toBe('cancelled');
  });
});
