/** Repeats of earlier payments: the index digest, the states that count, the order. Pure. */
import { describe, expect, it } from 'vitest';
import {
  byUrgency,
  flaggedFirst,
  howLongBefore,
  paymentDigest,
  type RepeatHit,
  repeatStateOf,
} from '../../../src/domain/repeats.js';
import type { ServiceCall } from '../../../src/domain/request.js';

const transfer = (receiver: string, amount: number, asset = 'base:usdc'): ServiceCall =>
  ({ kind: 'transfer', body: { wallet_id: 'wal_ops', amount, receiver, asset } }) as ServiceCall;
const offramp = (beneficiary_id: string, amount: number): ServiceCall =>
  ({ kind: 'offramp', body: { wallet_id: 'wal_ops', amount, beneficiary_id, asset: 'base:usdc' } }) as ServiceCall;
const EVM = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

describe('paymentDigest', () => {
  it('is one key for an EVM address in any case, from any wallet, with the same amount and asset', () => {
    expect(paymentDigest(transfer(EVM.toLowerCase(), 250))).toBe(paymentDigest(transfer(EVM, 250.0)));
    const other = { ...transfer(EVM, 250), body: { ...transfer(EVM, 250).body, wallet_id: 'wal_treasury' } };
    expect(paymentDigest(other as ServiceCall)).toBe(paymentDigest(transfer(EVM, 250)));
  });

  it('differs by amount, asset and destination; a beneficiary id keeps its case', () => {
    const base = paymentDigest(transfer(EVM, 250));
    expect(paymentDigest(transfer(EVM, 250.01))).not.toBe(base);
    expect(paymentDigest(transfer(EVM, 250, 'base:usdt'))).not.toBe(base);
    expect(paymentDigest(offramp('ben_Ab', 10))).not.toBe(paymentDigest(offramp('ben_ab', 10)));
    expect(paymentDigest(offramp('ben_ab', 10))).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is undefined for what moves no money', () => {
    expect(paymentDigest({ kind: 'register-beneficiary', body: { beneficiaries: [] } })).toBeUndefined();
  });
});

describe('repeatStateOf', () => {
  it('counts pending, approved, executing, succeeded and unknown; never failed or cancelled', () => {
    expect(repeatStateOf('queued', 'pending')).toBe('pending');
    for (const a of ['approved', 'running', 'paused', 'stopping']) expect(repeatStateOf('queued', a)).toBe('approved');
    for (const e of ['executing', 'succeeded', 'unknown']) expect(repeatStateOf(e, 'running')).toBe(e);
    for (const a of ['denied', 'expired', 'cancelled', 'done', undefined])
      expect(repeatStateOf('queued', a)).toBeUndefined();
    for (const e of ['failed', 'cancelled', undefined]) expect(repeatStateOf(e, 'done')).toBeUndefined();
  });
});

describe('order', () => {
  it('puts an unknown payment first, then the most recent', () => {
    const hits: RepeatHit[] = [
      { of: 'R-1.1', state: 'succeeded', at: 3 },
      { of: 'R-2.1', state: 'unknown', at: 1 },
      { of: 'R-3.1', state: 'pending', at: 5 },
    ];
    expect(byUrgency(hits).map((h) => h.of)).toEqual(['R-2.1', 'R-3.1', 'R-1.1']);
  });

  it('previews rows repeating an unknown payment, then other flagged rows, then the rest, each in file order', () => {
    const rows = [2, 3, 4, 5, 6, 7].map((row) => ({ row }));
    expect(flaggedFirst(rows, new Set([6]), new Set([3, 6, 7])).map((r) => r.row)).toEqual([6, 3, 7, 2, 4, 5]);
  });

  it('says how long before in words', () => {
    const now = 10 * 86_400_000;
    expect(howLongBefore(now - 2 * 86_400_000 - 5, now)).toBe('2 days');
    expect(howLongBefore(now - 86_400_000, now)).toBe('1 day');
    expect(howLongBefore(now - 3 * 3_600_000, now)).toBe('3 hours');
    expect(howLongBefore(now - 20 * 60_000, now)).toBe('20 minutes');
    expect(howLongBefore(now - 5_000, now)).toBe('a minute');
  });
});
