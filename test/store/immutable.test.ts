/**
 * A request is immutable once posted (DESIGN invariant 2): a second create under the same id
 * (a retried submission, a reused id) changes nothing of the first, and neither the votes nor
 * the compare-and-set that starts execution rewrite the sealed call, so what the worker runs is
 * what was approved.
 */
import { expect, it } from 'vitest';
import { callHash, type SealedRequest, type ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { transferOf } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('immutable');
const store = new RequestStore(redis, prefix);

const transfer = transferOf;

const sealedAs = (id: string, call: ServiceCall, requester: string): SealedRequest => ({
  id,
  call,
  display: { walletAlias: 'ops', amountText: String(call.kind === 'transfer' ? call.body.amount : ''), chain: 'base' },
  requester,
  reason: 'immutability',
  createdAt: Date.now(),
  expiresAt: Date.now() + 60_000,
  requiredApprovals: 1,
  rule: '1 approval',
  hash: callHash(call),
});

it('keeps the first request whole when a second create uses its id, through approval and execution', async () => {
  const id = await store.nextId();
  const posted = sealedAs(id, transfer(25), 'U0REQUESTER');
  await store.create(posted);
  await store.vote(id, 'U0APPROVER1');

  // Another create under the same id, with another amount and requester: refused or ignored,
  // it must leave the approved request as it was.
  const rival = sealedAs(id, transfer(25_000), 'U0MALLORY');
  await store.create(rival).catch(() => undefined);
  const after = await store.get(id);
  expect(after?.sealed).toEqual(posted);
  expect(after?.state).toBe('approved');
  expect(after?.votes.map((v) => v.user)).toEqual(['U0APPROVER1']);
  expect((await store.history(id)).map((e) => e.event)).toEqual(['requested', 'approval', 'approved', 'queued']);

  // What the worker is handed at its compare-and-set is the posted call, byte for byte.
  const started = await store.startExecution(id, 'worker');
  if (started.token === undefined) throw new Error(`not started: ${started.from}`);
  expect(JSON.stringify(started.sealed)).toBe(JSON.stringify(posted));
  expect(callHash(started.sealed.call)).toBe(posted.hash);
});
