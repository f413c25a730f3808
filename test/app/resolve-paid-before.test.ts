/**
 * An unknown execution of an approval with several, resolved as paid, makes its own destination
 * paid before, never the destination of the approval's first call (which only describes them).
 */
import { expect, it } from 'vitest';
import { approve } from '../../src/app/decide.js';
import { resolveUnknown } from '../../src/app/resolve.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { APPROVERS, useWorld } from './support.js';

const w = useWorld('resolve-paid-before');

const FIRST = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const SECOND = '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68';
const to = (receiver: string, amount: number): ServiceCall => ({
  kind: 'transfer',
  body: { wallet_id: 'wal_ops_7f3a', amount, receiver, asset: 'base:usdc' },
});

it('records the resolved execution’s own destination as paid, not the first call’s', async () => {
  const id = await w.submit([to(FIRST, 6.01), to(SECOND, 6.02)]);
  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  const started = await w.store.executions.start(`${id}.2`, 'test-worker');
  if (!started.token) throw new Error('execution 2 did not start');
  expect((await w.store.executions.finish(`${id}.2`, started.token, 'unknown', { message: 'time-out' })).ok).toBe(true);

  const resolved = await resolveUnknown(w.deps, APPROVERS[1] as string, {
    id: `${id}.2`,
    paid: true,
    note: `0x${'ab'.repeat(32)}`,
  });
  expect(resolved.kind).toBe('paid');
  expect(await w.store.knownPayee('base', SECOND)).toBe(true);
  expect(await w.store.knownPayee('base', FIRST)).toBe(false);
});
