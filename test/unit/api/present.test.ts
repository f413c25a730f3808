/**
 * The API presents a request from the approval's own state and counts and from its real
 * execution records, never from the one-word view state; batch rows ride on their
 * executions. And a batch body's problems carry JSON pointers with the batch file's sentences.
 */
import { describe, expect, it } from 'vitest';
import { checkBatchBody } from '../../../src/adapters/api/batch-fields.js';
import { presentRequest } from '../../../src/adapters/api/present.js';
import { emptyCounts } from '../../../src/domain/approval.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import { buildRecord, buildSealedRequest, RECEIVER_EVM } from '../../support/factories.js';

const wallets = [{ alias: 'ops', id: 'wal_ops_7f3a' }];

function pausedBatch(): RequestRecord {
  const sealed = buildSealedRequest('transfer', { id: 'B-7' });
  sealed.display = { ...sealed.display, batch: { kind: 'transfers', fileName: 'f', rows: 3 } as never };
  return {
    sealed,
    shape: 'batch',
    // The view state of a paused batch reads "approved"; the approval itself is paused.
    state: 'approved',
    votes: [],
    approvalState: 'paused',
    executionCount: 3,
    counts: { ...emptyCounts(), succeeded: 1, unknown: 1, queued: 1 },
    executions: [
      { id: 'B-7.1', approvalId: 'B-7', state: 'succeeded', sealHash: '', tries: 1, outcome: { hash: '0xabc' } },
      { id: 'B-7.2', approvalId: 'B-7', state: 'unknown', sealHash: '', tries: 1, outcome: { message: 'time-out' } },
      { id: 'B-7.3', approvalId: 'B-7', state: 'queued', sealHash: '', tries: 0 },
    ],
  };
}

describe('presenting a request', () => {
  it('reads a batch’s state, counts and every execution from its records', () => {
    const rows = [1, 2, 3].map((row) => ({
      row,
      destination: RECEIVER_EVM,
      amount: `${row}0`,
      reference: `INV-${row}`,
    }));
    const r = pausedBatch();
    const view = presentRequest(r, [], { executions: r.executions, rows, next: null });
    expect(view.state).toBe('paused');
    expect(view.execution_count).toBe(3);
    expect(view.execution_counts).toMatchObject({ succeeded: 1, unknown: 1, queued: 1 });
    expect(view.receiver).toBeUndefined();
    expect(view.executions).toEqual([
      {
        id: 'B-7.1',
        state: 'succeeded',
        hash: '0xabc',
        row: { number: 1, destination: RECEIVER_EVM, amount: '10', reference: 'INV-1' },
      },
      {
        id: 'B-7.2',
        state: 'unknown',
        message: 'time-out',
        row: { number: 2, destination: RECEIVER_EVM, amount: '20', reference: 'INV-2' },
      },
      { id: 'B-7.3', state: 'queued', row: { number: 3, destination: RECEIVER_EVM, amount: '30', reference: 'INV-3' } },
    ]);
  });

  it('shows a single request’s one execution as recorded, from pending on', () => {
    expect(presentRequest(buildRecord('pending'), []).executions).toEqual([{ id: 'R-1001.1', state: 'queued' }]);
    const done = presentRequest(buildRecord('succeeded'), []);
    expect(done.state).toBe('done');
    expect(done.executions[0]).toMatchObject({ state: 'succeeded', hash: expect.stringMatching(/^0x5b1e/) });
  });
});

describe('a batch body', () => {
  const body = (rows: unknown[], over: Record<string, unknown> = {}) => ({
    kind: 'transfers',
    wallet: 'ops',
    asset: 'base:usdc',
    rows,
    ...over,
  });

  it('answers each row’s problem at its pointer with the batch file’s sentence', () => {
    const checked = checkBatchBody(
      body([
        { receiver: RECEIVER_EVM, amount: '10' },
        { receiver: RECEIVER_EVM, amount: '12,5' },
        { receiver: 'nope', amount: '-1', extra: 1 },
      ]),
      wallets,
      100,
    );
    expect(checked.ok ? [] : checked.errors.map((e) => e.pointer)).toEqual(['/rows/2/extra']);
    const cells = checkBatchBody(
      body([
        { receiver: RECEIVER_EVM, amount: '10' },
        { receiver: RECEIVER_EVM, amount: '12,5' },
        { receiver: 'nope', amount: '-1' },
        { amount: '5' },
        { receiver: '', amount: '' },
      ]),
      wallets,
      100,
    );
    if (cells.ok) throw new Error('expected problems');
    expect(cells.errors.map((e) => e.pointer)).toEqual([
      '/rows/1/amount',
      '/rows/2/receiver',
      '/rows/2/amount',
      '/rows/3/receiver',
      '/rows/4',
    ]);
    expect(cells.errors[3]?.detail).toBe('Row 4 receiver: the receiver address is empty.');
    expect(cells.errors[0]?.detail).toMatch(/^Row 2 amount: /);
    expect(cells.errors[2]?.detail).toBe(
      'Row 3 amount: -1 (the entire balance) is not allowed in a batch; write the exact amount to pay.',
    );
  });

  it('names a wrong wallet, asset, kind, row type and too many rows', () => {
    const wallet = checkBatchBody(body([{ receiver: RECEIVER_EVM, amount: '1' }], { wallet: 'treasury' }), wallets, 5);
    expect(wallet).toMatchObject({ ok: false, onlyWallet: true, errors: [{ pointer: '/wallet' }] });
    const kind = checkBatchBody(body([], { kind: 'refunds' }), wallets, 5);
    expect(kind).toMatchObject({ ok: false, errors: [{ pointer: '/kind' }] });
    const number = checkBatchBody(body([{ receiver: RECEIVER_EVM, amount: 10 }]), wallets, 5);
    expect(number).toMatchObject({
      ok: false,
      errors: [{ pointer: '/rows/0/amount', detail: expect.stringContaining('string') }],
    });
    const many = checkBatchBody(
      body(Array.from({ length: 6 }, () => ({ receiver: RECEIVER_EVM, amount: '1' }))),
      wallets,
      5,
    );
    expect(many).toMatchObject({
      ok: false,
      errors: [{ pointer: '/rows', detail: 'The batch has 6 rows; a batch may have at most 5, so split it.' }],
    });
    const ok = checkBatchBody(body([{ receiver: RECEIVER_EVM, amount: '1', reference: 'INV-1' }]), wallets, 5);
    expect(ok).toMatchObject({ ok: true, rows: [{ row: 1, destination: RECEIVER_EVM, reference: 'INV-1' }] });
  });
});
