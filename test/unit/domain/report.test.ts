import { describe, expect, it } from 'vitest';
import { paymentName, reportBlocks } from '../../../src/adapters/slack/blocks/report.js';
import { batchPayments, buildReport, paymentOf } from '../../../src/domain/report.js';
import { callHash, type RequestRecord, type ServiceCall } from '../../../src/domain/request.js';
import { buildRecord } from '../../support/factories.js';

const DAY = 86_400_000;
const SINCE = Date.UTC(2026, 10, 16, 0, 0); // Monday 16 Nov 2026, 01:00 in Lagos
const window = { since: SINCE - 3_600_000, until: SINCE - 3_600_000 + 7 * DAY - 1, zone: 'Africa/Lagos' };

let n = 2000;
function payment(
  state: RequestRecord['state'],
  amount: number,
  at: number,
  over: { receiver?: string; asset?: 'base:usdc' | 'bsc:cngn'; kind?: 'transfer' | 'offramp' } = {},
): RequestRecord {
  const call: ServiceCall =
    over.kind === 'offramp'
      ? {
          kind: 'offramp',
          body: { wallet_id: 'wal_ops_7f3a', amount, beneficiary_id: 'ben_1', asset: over.asset ?? 'base:usdc' },
        }
      : {
          kind: 'transfer',
          body: {
            wallet_id: 'wal_ops_7f3a',
            amount,
            receiver: over.receiver ?? '0xA',
            asset: over.asset ?? 'base:usdc',
          },
        };
  const base = buildRecord(state);
  n += 1;
  return {
    ...base,
    sealed: { ...base.sealed, id: `R-${n}`, call, hash: callHash(call), createdAt: at - 600_000 },
    decidedAt: at,
    votes: [{ user: 'U0APPROVER1', at }],
  };
}

describe('buildReport', () => {
  const records = [
    payment('succeeded', 100, SINCE + 2 * 3_600_000, { receiver: '0xA' }),
    payment('succeeded', 250.5, SINCE + DAY + 3_600_000, { receiver: '0xB' }),
    payment('succeeded', 40, SINCE + DAY + 7_200_000, { receiver: '0xA' }),
    payment('failed', 999, SINCE + 2 * DAY),
    payment('unknown', 75, SINCE + 3 * DAY, { receiver: '0xC' }),
    payment('succeeded', 1_000_000, SINCE + 4 * DAY, { asset: 'bsc:cngn', kind: 'offramp' }),
    payment('succeeded', 5, SINCE - 2 * DAY), // before the window
  ];
  const report = buildReport(records, window, (k) => k === 'base 0xB');

  it('sums outflow per Lagos day and asset code from succeeded payments only', () => {
    expect(report.days).toHaveLength(7);
    expect(report.days[0]).toBe('2026-11-16');
    expect(report.outflow.USDC?.perDay.slice(0, 3)).toEqual([100_000_000n, 290_500_000n, 0n]);
    expect(report.outflow.CNGN?.perDay[4]).toBe(1_000_000_000_000n);
  });

  it('counts per kind and outcome, lists the largest, the first-time destinations and the unresolved', () => {
    expect(report.totals).toEqual({
      'transfer succeeded': 3,
      'transfer failed': 1,
      'transfer unknown': 1,
      'offramp succeeded': 1,
    });
    expect(report.largest.map((p) => p.code)).toEqual(['CNGN', 'USDC', 'USDC', 'USDC']);
    expect(report.largest[1]?.units).toBe(250_500_000n);
    // 0xB was paid before the window; 0xA is new (once); the unknown 0xC is not a payment made.
    expect(report.firstTime.map((p) => p.destination)).toEqual(['0xA', 'ben_1']);
    expect(report.unresolved.map((p) => p.destination)).toEqual(['0xC']);
    expect(report.approval).toEqual({ median: 600_000, slowest: 600_000, count: 6 });
  });
});

describe('a batch in the report', () => {
  const batch = payment('succeeded', 60, SINCE + DAY); // its call describes the total, never sent
  const record = { ...batch, shape: 'batch' as const, sealed: { ...batch.sealed, id: 'B-7' } };
  const row = (n: number, amount: string, destination: string) => ({ row: n + 1, destination, amount });
  const rows = batchPayments(record, [
    { row: row(1, '10', '0xR1'), executionId: 'B-7.1', state: 'succeeded', at: SINCE + DAY },
    { row: row(2, '45.5', '0xR2'), executionId: 'B-7.2', state: 'succeeded', at: SINCE + 2 * DAY + 3_600_000 },
    { row: row(3, '4.5', '0xR3'), executionId: 'B-7.3', state: 'unknown', at: SINCE + 2 * DAY + 7_200_000 },
  ]);
  const report = buildReport([record], window, () => false, rows);

  it('counts each row on its own day, and not the batch’s describing total', () => {
    expect(paymentOf(record)).toBeUndefined();
    expect(report.outflow.USDC?.perDay.slice(0, 3)).toEqual([0n, 10_000_000n, 45_500_000n]);
    expect(report.totals).toEqual({ 'transfer succeeded': 2, 'transfer unknown': 1 });
    expect(report.largest.map((p) => p.id)).toEqual(['B-7.2', 'B-7.1']);
    expect(report.firstTime.map((p) => p.destination)).toEqual(['0xR1', '0xR2']);
    expect(report.unresolved.map((p) => p.id)).toEqual(['B-7.3']);
    expect(report.approval?.count).toBe(1);
  });

  it('names each row as its card and receipt do: the row of the file (execution B-7.3 is "B-7 row 4")', () => {
    expect(report.unresolved.map(paymentName)).toEqual(['B-7 row 4']);
    expect(report.largest.map(paymentName)).toEqual(['B-7 row 3', 'B-7 row 2']);
  });
});

describe('a paused batch in the report', () => {
  const base = payment('approved', 30, SINCE + DAY);
  const facts = {
    kind: 'transfers' as const,
    fileName: 'run.csv',
    rows: 3,
    total: '30',
    largest: { row: 2, amount: '10' },
    availableNow: '100',
    availableAfter: '70',
    fileFingerprint: 'f'.repeat(64),
    preview: [],
  };
  const record: RequestRecord = {
    ...base,
    sealed: { ...base.sealed, id: 'B-8', display: { ...base.sealed.display, batch: facts } },
    shape: 'batch',
    approvalState: 'paused',
    pauseReason: '1 row in a row failed; check it, then resume or stop',
    executionCount: 3,
    counts: { queued: 1, executing: 0, succeeded: 1, failed: 1, unknown: 0, cancelled: 0 },
  };
  const row = (n: number) => ({ row: n + 1, destination: `0xP${n}`, amount: '10' });
  const rows = batchPayments(record, [
    { row: row(1), executionId: 'B-8.1', state: 'succeeded', at: SINCE + DAY },
    { row: row(2), executionId: 'B-8.2', state: 'failed', at: SINCE + DAY },
    { row: row(3), executionId: 'B-8.3', state: 'queued', at: SINCE + DAY },
  ]);
  const report = buildReport([record], window, () => false, rows);

  it('counts its unsent rows as waiting on the pause, not queued, and says why it is paused', () => {
    expect(report.totals).toEqual({
      'transfer succeeded': 1,
      'transfer failed': 1,
      'transfer unsent (batch paused)': 1,
    });
    expect(report.openBatches).toEqual([{ id: 'B-8', words: 'Paused: 1 row in a row failed (2 of 3 rows run)' }]);
    const text = JSON.stringify(
      reportBlocks({ report, charts: [], summaries: [], csv: '', payments: [] }, 7, { kind: 'native' }),
    );
    expect(text).toContain('*Batches not finished*\\n• `B-8` Paused: 1 row in a row failed (2 of 3 rows run)');
  });
});
