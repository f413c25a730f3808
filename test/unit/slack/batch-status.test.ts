/**
 * What a batch says happened, on the blocks and text Slack would receive: the second walk's
 * batch B-1003 (20 rows of 50,000 cNGN on BNB Smart Chain from ops, requested by @riley,
 * approved by @amara) as the fixture. Pure.
 */
import { describe, expect, it } from 'vitest';
import { batchCardBlocks } from '../../../src/adapters/slack/blocks/batch-card.js';
import { cardText } from '../../../src/adapters/slack/blocks/card-summary.js';
import type { BatchRowOutcome } from '../../../src/app/notifier.js';
import type { ExecutionCounts } from '../../../src/domain/approval.js';
import type { BatchFacts } from '../../../src/domain/batch-approval.js';
import { batchSummaryText, previewLines } from '../../../src/domain/batch-approval.js';
import { executionName, executionOfRow } from '../../../src/domain/batch-status.js';
import type { ExecutionRecord, RequestRecord } from '../../../src/domain/request.js';
import { pauseNoticeText } from '../../../src/presenters/batch-pause.js';
import { batchReceipt } from '../../../src/presenters/batch-receipt.js';
import { readableTexts } from '../../support/block-texts.js';

const RILEY = 'U0RILEY';
const AMARA = 'U0AMARA';
const ID = 'B-1003';
const ROWS = 20;

const facts: BatchFacts = {
  kind: 'transfers',
  fileName: 'batch-good.csv',
  rows: ROWS,
  total: '1000000',
  largest: { row: 2, amount: '50000' },
  availableNow: '14000000',
  availableAfter: '13000000',
  fileFingerprint: 'f'.repeat(64),
  preview: [],
};

/** Row n (file rows 2…21) is execution `B-1003.{n-1}`. */
function record(approvalState: RequestRecord['approvalState'], states: ExecutionRecord['state'][]): RequestRecord {
  const counts: ExecutionCounts = { queued: 0, executing: 0, succeeded: 0, failed: 0, unknown: 0, cancelled: 0 };
  for (const s of states) counts[s] += 1;
  return {
    shape: 'batch',
    sealed: {
      id: ID,
      call: { kind: 'transfer', body: { wallet_id: 'wal_ops', amount: 1_000_000, receiver: '', asset: 'bsc:cngn' } },
      display: {
        walletAlias: 'ops',
        amountText: '1,000,000.00',
        assetCode: 'cNGN',
        chain: 'bsc',
        availableBefore: '14,000,000.00',
        availableAfter: '13,000,000.00',
        batch: facts,
      },
      requester: RILEY,
      reason: 'Vendor run November',
      createdAt: 0,
      expiresAt: 86_400_000,
      requiredApprovals: 1,
      rule: '1 approval: amount up to 75,000,000 cNGN',
      hash: 'b973286c22',
    },
    state: 'approved',
    votes: [{ user: AMARA, at: 1 }],
    approvalState,
    executionCount: ROWS,
    counts,
    executions: states.map((state, i) => ({ id: `${ID}.${i + 1}`, approvalId: ID, state, sealHash: 'h', tries: 1 })),
  };
}

const outcomes = (r: RequestRecord): BatchRowOutcome[] =>
  r.executions.map((e, i) => ({
    row: i + 2,
    destination: `0x${String(i).padStart(40, 'a')}`,
    amount: '50000',
    executionId: e.id,
    state: e.state,
    outcome:
      e.state === 'failed'
        ? {
            failure: {
              class: 'refused',
              code: 'SERVICE_REFUSED',
              status: 400,
              serviceMessage: 'insufficient available balance (0 cNGN)',
            },
          }
        : undefined,
  }));

const repeat = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);

describe('a paused batch', () => {
  // Rows 12, 13 and 14 failed in a row; 7 rows wait.
  const paused = {
    ...record('paused', [
      ...repeat(10, 'succeeded' as const),
      ...repeat(3, 'failed' as const),
      ...repeat(7, 'queued' as const),
    ]),
    pauseReason: '3 rows in a row failed; check them, then resume or stop',
  };

  it('posts one thread reply that mentions the requester and approvers and names rows, reason and advice', () => {
    const text = pauseNoticeText({
      record: paused,
      rows: outcomes(paused),
      unsent: { rows: 7, need: { units: 350_000_000_000n, decimals: 6 } },
      approvers: [AMARA, 'S0TREASURY'],
    });
    expect(text).toContain(`<@${RILEY}> <@${AMARA}> <!subteam^S0TREASURY>`);
    expect(text).toContain(
      'Rows 12, 13 and 14 failed: The wallet service refused it: “insufficient available balance (0 cNGN)”',
    );
    expect(text).toContain('Fund ops and *Resume*, or *Stop* (7 rows, 350,000.00 cNGN unsent).');
  });

  it('says so in the notification text and on the card, never "Approved, queued to run"', () => {
    expect(cardText(paused)).toMatch(/^Paused: 3 rows in a row failed \(13 of 20 rows run\): batch of 20 transfers/);
    const card = readableTexts(batchCardBlocks(paused, facts, false, undefined)).join('\n');
    expect(card).toContain('Paused: 3 rows in a row failed (13 of 20 rows run)');
    expect(card).toContain('*Asset:* cNGN on BNB Smart Chain');
    expect(card).toContain('row 2, 50,000.00 cNGN');
    expect(card).toContain('*Available at submission:* 14,000,000.00 cNGN');
    expect(card).toContain('7 unsent rows will be cancelled');
  });

  it('an unknown row leads its reply, with the advice to check it first', () => {
    const unknown = record('paused', [...repeat(5, 'succeeded' as const), 'unknown', ...repeat(14, 'queued' as const)]);
    const text = pauseNoticeText({
      record: unknown,
      rows: outcomes(unknown),
      unsent: { rows: 14, need: { units: 700_000_000_000n, decimals: 6 } },
      approvers: [AMARA],
    });
    expect(text).toContain('The outcome of row 7 is UNKNOWN');
    expect(text).toContain('Check row 7 with the service first, then press *Record outcome*');
    expect(cardText(unknown)).toMatch(/^OUTCOME UNKNOWN: row 7 · paused \(6 of 20 rows run\)/);
  });
});

describe('a finished batch', () => {
  const half = record('done', [
    ...repeat(10, 'succeeded' as const),
    ...repeat(3, 'failed' as const),
    ...repeat(7, 'cancelled' as const),
  ]);
  const moved = batchReceipt(half, outcomes(half)).moved;

  it('that moved half a million is "Partly paid", never "Failed"', () => {
    const text = cardText(half);
    expect(text).toMatch(/^Partly paid: 10 of 20, 3 failed, 7 cancelled:/);
    expect(text).not.toMatch(/Failed/);
    expect(batchSummaryText(half, moved)).toBe(
      `<@${RILEY}> Batch ${ID} finished. Partly paid: 10 of 20 (500,000.00 cNGN), 3 failed, 7 cancelled. Total moved: 500,000.00 cNGN. The receipt is attached.`,
    );
    const card = readableTexts(batchCardBlocks(half, facts, false, undefined)).join('\n');
    expect(card).toContain('Partly paid: 10 of 20, 3 failed, 7 cancelled');
    // Drawn with the total the rows moved (app/batch-moved.ts reads it): the money is in the words.
    const drawn = { ...half, moved };
    expect(cardText(drawn)).toMatch(/^Partly paid: 10 of 20 \(500,000\.00 cNGN\), 3 failed, 7 cancelled:/);
    expect(readableTexts(batchCardBlocks(drawn, facts, false, undefined)).join('\n')).toContain(
      'Partly paid: 10 of 20 (500,000.00 cNGN), 3 failed, 7 cancelled',
    );
    expect(card).not.toContain('Failed');
    // Collapsed as a single card: no preview, no Stop, no "available now".
    expect(card).not.toContain('Available');
    expect(card).not.toContain('Stop');
  });

  it('with an unknown row leads with it, and keeps its Record outcome button', () => {
    const unknown = record('done', [
      ...repeat(5, 'succeeded' as const),
      'unknown',
      ...repeat(14, 'succeeded' as const),
    ]);
    expect(cardText(unknown)).toMatch(/^OUTCOME UNKNOWN: row 7 · partly paid: 19 of 20/);
    const blocks = batchCardBlocks(unknown, facts, false, undefined, [AMARA]);
    expect(JSON.stringify(blocks)).toContain('Record outcome');
  });

  it('names a row one way everywhere people read it: "B-1003 row 7", the row of the file', () => {
    const unknown = record('done', [
      ...repeat(5, 'succeeded' as const),
      'unknown',
      ...repeat(14, 'succeeded' as const),
    ]);
    const blocks = batchCardBlocks(unknown, facts, false, undefined, [AMARA]);
    const texts = readableTexts(blocks).join('\n');
    expect(texts).toContain('*B-1003 row 7*: outcome unknown');
    expect(texts).not.toContain('B-1003.6');
    const button = JSON.stringify(blocks);
    expect(button).toContain('"accessibility_label":"Record the outcome of B-1003 row 7"');
    // The button still carries the execution's id: what is settled is exactly that execution.
    expect(button).toContain('"value":"B-1003.6"');
    expect(executionName(unknown, 'B-1003.6')).toBe('B-1003 row 7');
    expect(executionOfRow(unknown, 7)).toBe('B-1003.6');
    expect(executionOfRow(unknown, 1)).toBeUndefined();
    expect(executionOfRow(unknown, 22)).toBeUndefined();
    // The HTTP API numbers its rows from 1: there row k is execution k.
    const api = {
      ...unknown,
      sealed: {
        ...unknown.sealed,
        display: { ...unknown.sealed.display, viaApi: { keyId: 'k_1', keyName: 'erp', owner: RILEY } },
      },
    };
    expect(executionName(api, 'B-1003.6')).toBe('B-1003 row 6');
    expect(executionOfRow(api, 6)).toBe('B-1003.6');
  });

  it('gives a cancelled row its reason in the receipt', () => {
    const csv = batchReceipt(half, outcomes(half)).csv.split('\r\n');
    expect(csv[14]).toMatch(/,cancelled,,not sent: the batch was stopped before this row ran$/);
  });
});

describe('a row destination', () => {
  it('has the one short form people read everywhere: first 6, last 4', () => {
    const rows = [{ row: 2, destination: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF', amount: '50000' }];
    expect(previewLines(rows, 'cNGN', 'bsc:cngn')).toEqual(['row 2 · 0x99ED…EdcF · 50,000.00 cNGN']);
  });
});

describe('a row amount', () => {
  it('reads like the total, never rounded', () => {
    const rows = [
      { row: 2, destination: 'ops-vendor', amount: '1234.994' },
      { row: 3, destination: 'x', amount: '50000' },
    ];
    expect(previewLines(rows, 'cNGN', 'bsc:cngn')).toEqual([
      'row 2 · ops-vendor · 1,234.994 cNGN',
      'row 3 · x · 50,000.00 cNGN',
    ]);
  });
});
