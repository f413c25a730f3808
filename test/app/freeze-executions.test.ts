/**
 * The freeze and its lift reach an approval's executions in pages. Unfreeze-cancel
 * of a 1,000-execution approval: every unsent one cancelled, the freeze lifted, one card refresh
 * (its reply) per approval.
 */
import { expect, it } from 'vitest';
import { approve } from '../../src/app/decide.js';
import { freeze, heldRequests, startUnfreeze, voteUnfreeze } from '../../src/app/freeze.js';
import { emptyCounts } from '../../src/domain/approval.js';
import { APPROVERS, transfer, useWorld } from './support.js';

const w = useWorld('freeze-executions');

it('unfreeze-cancel of a 1,000-execution approval cancels every unsent one, lifts the freeze, one refresh each', async () => {
  const [a1, a2] = APPROVERS as [string, string];
  const big = await w.submit(
    Array.from({ length: 1000 }, (_, i) => transfer(Number(`0.${String(i + 1).padStart(4, '0')}`))),
  );
  const single = await w.submit([transfer(5.01)]);
  for (const id of [big, single]) expect((await approve(w.deps, id, a1)).kind).toBe('approved');

  const deps = { ...w.deps, unfreeze: w.unfreeze };
  expect((await freeze(deps, a2, 'incident 7')).kind).toBe('frozen');
  expect((await heldRequests(deps)).map((r) => r.sealed.id).sort()).toEqual([big, single].sort());
  const proposal = await startUnfreeze(deps, a1);
  if (proposal.kind !== 'proposal') throw new Error(proposal.kind);

  const before = w.notified.length;
  expect((await voteUnfreeze(deps, a1, proposal.proposal.id, 'cancel')).kind).toBe('voted');
  const lifted = await voteUnfreeze(deps, a2, proposal.proposal.id, 'cancel');
  expect(lifted).toMatchObject({ kind: 'lifted', choice: 'cancel' });

  expect(await w.controls.freeze()).toBeUndefined();
  const record = await w.store.get(big);
  expect(record).toMatchObject({ approvalState: 'done', state: 'cancelled', executionCount: 1000 });
  expect(record?.counts).toEqual({ ...emptyCounts(), cancelled: 1000 });
  const states = new Set((await w.store.executions.page(big, 0, 1000)).map((e) => e.state));
  expect([...states]).toEqual(['cancelled']);
  expect((await w.store.get(single))?.state).toBe('cancelled');
  expect(await w.store.executions.readyIds()).toEqual([]);
  const after = w.notified.slice(before);
  expect(after.filter((n) => n.requestId === big)).toHaveLength(1);
  expect(after.filter((n) => n.requestId === single)).toHaveLength(1);
  expect(w.sandbox.state.received.filter((r) => r.path === '/transfer')).toHaveLength(0);
});
