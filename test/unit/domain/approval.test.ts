import { describe, expect, it } from 'vitest';
import { sealHash as fastSealHash } from '../../../src/app/check-batch.js';
import {
  APPROVAL_STATES,
  APPROVAL_TRANSITIONS,
  approvalHash,
  approvalHashOf,
  canMoveApproval,
  canMoveExecution,
  cardHash,
  EXECUTION_STATES,
  emptyCounts,
  executionId,
  matchesSeal,
  parseExecutionId,
  SINGLE_STATES,
  sealHash,
  singleCounts,
  tryJobId,
  VIEW_STATES,
  viewState,
} from '../../../src/domain/approval.js';
import { sealedApprovalHash } from '../../../src/domain/step-up.js';

const call = (amount: string, receiver = '0x6Be7E73f4A1264E8EF4C486e42C78f33D5Dc5344') => ({
  kind: 'transfer',
  body: { wallet_id: 'wal_ops_7f3a', asset: 'base:usdc', amount, receiver },
});

describe('the approval and execution machines (DESIGN "States, ids and hashes")', () => {
  it('moves an approval pending → approved → running → done, and nowhere back', () => {
    expect(canMoveApproval('pending', 'approved')).toBe(true);
    expect(canMoveApproval('approved', 'running')).toBe(true);
    expect(canMoveApproval('running', 'done')).toBe(true);
    expect(canMoveApproval('done', 'running')).toBe(false);
    expect(canMoveApproval('running', 'pending')).toBe(false);
    expect(canMoveApproval('denied', 'approved')).toBe(false);
  });

  it('lets a batch pause, resume and stop, and a stop end only in done', () => {
    expect(canMoveApproval('running', 'paused')).toBe(true);
    expect(canMoveApproval('paused', 'running')).toBe(true);
    expect(canMoveApproval('paused', 'stopping')).toBe(true);
    expect(APPROVAL_TRANSITIONS.stopping).toEqual(['done']);
  });

  it('has no way out of a final approval state', () => {
    for (const s of ['done', 'denied', 'cancelled', 'expired'] as const) expect(APPROVAL_TRANSITIONS[s]).toEqual([]);
    expect(Object.keys(APPROVAL_TRANSITIONS).sort()).toEqual([...APPROVAL_STATES].sort());
  });

  it('lets an execution go back to queued only from executing (provably never sent)', () => {
    expect(canMoveExecution('executing', 'queued')).toBe(true);
    for (const s of EXECUTION_STATES.filter((x) => x !== 'executing'))
      expect(canMoveExecution(s, 'queued')).toBe(false);
  });

  it('lets unknown become succeeded or failed (a late answer or a resolution) and nothing else', () => {
    expect(canMoveExecution('unknown', 'succeeded')).toBe(true);
    expect(canMoveExecution('unknown', 'failed')).toBe(true);
    expect(canMoveExecution('unknown', 'queued')).toBe(false);
    expect(canMoveExecution('unknown', 'executing')).toBe(false);
  });

  it('never starts an execution twice: a final execution moves nowhere, queued only to executing or cancelled', () => {
    for (const s of ['succeeded', 'failed', 'cancelled'] as const)
      for (const to of EXECUTION_STATES) expect(canMoveExecution(s, to)).toBe(false);
    expect(EXECUTION_STATES.filter((to) => canMoveExecution('queued', to))).toEqual(['executing', 'cancelled']);
  });
});

describe('the view state adapters list by', () => {
  it('is the old request state for one execution', () => {
    for (const view of VIEW_STATES) {
      const [approval, execution] = SINGLE_STATES[view];
      expect(viewState(approval, singleCounts(execution))).toBe(view);
    }
  });

  it('summarises a done batch by its worst outcome: unknown, then failed, then succeeded', () => {
    const counts = { ...emptyCounts(), succeeded: 8, failed: 1, unknown: 1 };
    expect(viewState('done', counts)).toBe('unknown');
    expect(viewState('done', { ...counts, unknown: 0 })).toBe('failed');
    expect(viewState('done', { ...counts, unknown: 0, failed: 0 })).toBe('succeeded');
    expect(viewState('done', { ...emptyCounts(), cancelled: 5 })).toBe('cancelled');
  });

  it('shows a running or paused batch as executing only while a row is between its CAS and its answer', () => {
    expect(viewState('running', { ...emptyCounts(), executing: 1, queued: 4 })).toBe('executing');
    expect(viewState('paused', { ...emptyCounts(), queued: 4, unknown: 1 })).toBe('approved');
  });
});

describe('ids', () => {
  it('names executions R-n.k and B-n.k, parsed back, with no # or :', () => {
    expect(executionId('B-12', 7)).toBe('B-12.7');
    expect(parseExecutionId('B-12.7')).toEqual({ approvalId: 'B-12', n: 7 });
    expect(parseExecutionId('R-3.1')).toEqual({ approvalId: 'R-3', n: 1 });
    for (const bad of ['B-12', 'B-12.', 'X-1.1', 'B-12#7', 'B-12:7', 'B-12.7.1'])
      expect(parseExecutionId(bad)).toBeUndefined();
  });

  it('gives every try its own job id', () => {
    expect(tryJobId('B-12.7', 2)).toBe('B-12.7-t2');
    expect(tryJobId('B-12.7', 1)).not.toBe(tryJobId('B-12.7', 2));
    expect(tryJobId('B-12.7', 2)).not.toMatch(/[#:]/);
  });
});

describe('hashes', () => {
  it('seals the exact call: any change to the amount or destination changes the sealHash', () => {
    expect(sealHash(call('10.00'))).toMatch(/^[0-9a-f]{64}$/);
    expect(sealHash(call('10.00'))).not.toBe(sealHash(call('10.01')));
    expect(sealHash(call('10.00'))).not.toBe(sealHash(call('10.00', '0x0000000000000000000000000000000000000001')));
  });

  it('does not depend on the order of the body keys', () => {
    const a = { kind: 'transfer', body: { amount: '5', wallet_id: 'w', asset: 'base:usdc', receiver: 'r' } };
    const b = { kind: 'transfer', body: { receiver: 'r', asset: 'base:usdc', wallet_id: 'w', amount: '5' } };
    expect(sealHash(a)).toBe(sealHash(b));
  });

  it('is the same hash in the batch check, which uses node:crypto for speed', () => {
    for (const c of [call('1'), call('0.000001'), call('1234567.89')])
      expect(fastSealHash(c as never)).toBe(sealHash(c));
  });

  it('commits an approval to its ordered seals: reordering rows changes the approvalHash', () => {
    const calls = [call('1'), call('2')];
    expect(approvalHashOf(calls)).toBe(
      approvalHash(
        'transfer',
        'wal_ops_7f3a',
        'base:usdc',
        calls.map((c) => sealHash(c)),
      ),
    );
    expect(approvalHashOf(calls)).not.toBe(approvalHashOf([...calls].reverse()));
    expect(cardHash(approvalHashOf(calls))).toHaveLength(10);
  });

  it("binds a waiting payment's time: another time is another hash, and a stored time changed no longer matches its card", () => {
    const calls = [call('10')];
    const friday = { notBefore: Date.UTC(2026, 11, 4, 8), zone: 'Africa/Lagos' };
    // No wait: the hash is what it always was, so records sealed before timing existed still verify.
    expect(approvalHashOf(calls, {})).toBe(approvalHashOf(calls));
    expect(approvalHashOf(calls, friday)).not.toBe(approvalHashOf(calls));
    expect(approvalHashOf(calls, friday)).not.toBe(
      approvalHashOf(calls, { ...friday, notBefore: friday.notBefore + 1 }),
    );
    expect(approvalHashOf(calls, { delayMs: 3_600_000 })).not.toBe(approvalHashOf(calls, { delayMs: 60_000 }));
    const sealed = { call: calls[0] as never, hash: cardHash(approvalHashOf(calls, friday)), timing: friday };
    expect(sealedApprovalHash(sealed)).toBe(approvalHashOf(calls, friday));
    expect(
      sealedApprovalHash({ ...sealed, timing: { ...friday, notBefore: friday.notBefore - 86_400_000 } }),
    ).toBeUndefined();
  });

  it('matches a full seal exactly and an old 10-character seal by prefix', () => {
    const full = sealHash(call('10'));
    expect(matchesSeal(call('10'), full)).toBe(true);
    expect(matchesSeal(call('11'), full)).toBe(false);
    expect(matchesSeal(call('10'), full.slice(0, 10))).toBe(true);
    expect(matchesSeal(call('11'), full.slice(0, 10))).toBe(false);
  });
});
