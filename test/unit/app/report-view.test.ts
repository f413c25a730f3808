import { describe, expect, it } from 'vitest';
import { reportBlocks } from '../../../src/adapters/slack/blocks/report.js';
import type { ReportView } from '../../../src/app/report.js';
import { outflowCharts } from '../../../src/app/report-charts.js';
import { batchPayments, buildReport } from '../../../src/domain/report.js';
import { callHash, type RequestRecord, type ServiceCall } from '../../../src/domain/request.js';
import type { VelocityRule } from '../../../src/domain/velocity.js';
import { buildRecord } from '../../support/factories.js';

const DAY = 86_400_000;
const SINCE = Date.UTC(2026, 10, 21);
const window = { since: SINCE, until: SINCE + 8 * DAY - 1, zone: 'UTC' };
const OPS = '0x1111111111111111111111111111111111111111';
const TREASURY = '0x2222222222222222222222222222222222222222';
const VENDOR = '0x3333333333333333333333333333333333333333';

let n = 1000;
function paid(wallet: 'ops' | 'treasury', amount: number, receiver: string, at: number): RequestRecord {
  const call: ServiceCall = {
    kind: 'transfer',
    body: { wallet_id: `wal_${wallet}`, amount, receiver, asset: 'base:usdc' },
  };
  const base = buildRecord('succeeded');
  n += 1;
  const display = { ...base.sealed.display, walletAlias: wallet, walletAddress: wallet === 'ops' ? OPS : TREASURY };
  return {
    ...base,
    sealed: { ...base.sealed, id: `R-${n}`, call, display, hash: callHash(call), createdAt: at - 60_000 },
    decidedAt: at,
  };
}

const rule = (wallet: string, limit: bigint): VelocityRule => ({
  wallet,
  code: 'USDC',
  limit,
  decimals: 6,
  windowMs: DAY,
  windowLabel: '24 h',
  text: `${wallet}:USDC=${limit / 1_000_000n}/24h`,
});

describe('the report’s outflow charts', () => {
  it('leaves a limit out when the wallet’s outflow is under 5 % of it, and says it in words', () => {
    const report = buildReport([paid('ops', 25, VENDOR, SINCE + 7 * DAY)], window, () => false);
    const [chart] = outflowCharts(report, [rule('ops', 200_000_000_000n)]);
    expect(chart?.spec.series.map((s) => s.name)).toEqual(['ops USDC out']);
    expect(chart?.limitNote).toBe('ops USDC: 25.00 of 200,000.00 per 24 h on the busiest day');
    expect(chart?.summary).toBe('8-day total 25.00 · most on Nov 28: 25.00 · out on 1 of 8 days');
  });

  it('draws a limit as a labelled line against its own wallet’s outflow only, without config syntax', () => {
    const report = buildReport(
      [paid('ops', 30, VENDOR, SINCE + DAY), paid('treasury', 900, VENDOR, SINCE + DAY)],
      window,
      () => false,
    );
    const charts = outflowCharts(report, [rule('ops', 100_000_000n)]);
    const ops = charts.find((c) => c.spec.title === 'ops: USDC out per day');
    expect(ops?.spec.series[0]?.values[1]).toBe(30); // ops alone, not ops and treasury together
    expect(ops?.spec.series[1]).toMatchObject({ name: 'ops limit 100.00 per 24 h', asLine: true });
    expect(ops?.spec.series[1]?.values[0]).toBe(100);
    expect(ops?.limitNote).toBeUndefined();
    const treasury = charts.find((c) => c.spec.title === 'treasury: USDC out per day');
    expect(treasury?.spec.series).toHaveLength(1);
    expect(JSON.stringify(charts)).not.toContain('USDC=');
  });
});

describe('/report’s rows', () => {
  it('names batch rows as the card does and the team’s own wallets as own wallets, not first-time destinations', () => {
    const sent = paid('ops', 5_000, TREASURY, SINCE + DAY);
    // Named so at submission, as a transfer to an own wallet is.
    const toTreasury = {
      ...sent,
      sealed: { ...sent.sealed, display: { ...sent.sealed.display, ownWallet: 'treasury' } },
    };
    const batch = paid('ops', 60, VENDOR, SINCE + 2 * DAY);
    const record = { ...batch, shape: 'batch' as const, sealed: { ...batch.sealed, id: 'B-1003' } };
    const rows = batchPayments(record, [
      {
        row: { row: 2, destination: VENDOR, amount: '10' },
        executionId: 'B-1003.1',
        state: 'succeeded',
        at: SINCE + 2 * DAY,
      },
      {
        row: { row: 3, destination: TREASURY, amount: '50' },
        executionId: 'B-1003.2',
        state: 'succeeded',
        at: SINCE + 2 * DAY,
      },
    ]);
    const report = buildReport([toTreasury, record], window, () => false, rows);
    expect(report.firstTime.map((p) => p.id)).toEqual(['B-1003.1']);
    const view: ReportView = { report, charts: [], summaries: [], csv: '', payments: [] };
    const text = JSON.stringify(reportBlocks(view, 8, { kind: 'native' }));
    expect(text).toContain('`B-1003 row 3` 50.00 USDC to treasury (own wallet) from ops');
    expect(text).toContain('5,000.00 USDC to treasury (own wallet) from ops');
    expect(text).toContain('`B-1003 row 2`');
    expect(text).not.toContain('B-1003.');
    // The one short address form people read everywhere: first 6, last 4.
    expect(text).toContain('`0x3333…3333` (transfer, `B-1003 row 2`');
  });
});
