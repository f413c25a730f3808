/** The warnings' words on a card and in Approve's confirmation. Pure. */
import { describe, expect, it } from 'vitest';
import {
  batchWarningLines,
  checkedWarnings,
  requestRepeatLines,
} from '../../../src/adapters/slack/blocks/repeat-lines.js';
import type { BatchFacts } from '../../../src/domain/batch-approval.js';
import type { SealedRequest } from '../../../src/domain/request.js';

const DAY = 86_400_000;
const NOW = 100 * DAY;

const facts = (more: Partial<BatchFacts>): BatchFacts => ({
  kind: 'offramps',
  fileName: 'payroll.csv',
  rows: 12,
  total: '100',
  largest: { row: 2, amount: '10' },
  availableNow: '1000',
  availableAfter: '900',
  fileFingerprint: 'f'.repeat(64),
  preview: [],
  ...more,
});

const sealed = (display: SealedRequest['display']): SealedRequest =>
  ({ id: 'R-1050', createdAt: NOW, display }) as SealedRequest;

describe('a batch card', () => {
  const b = facts({
    repeats: [
      { row: 7, of: 'B-1012.4', state: 'unknown', at: NOW - DAY },
      { row: 3, of: 'R-1041.1', state: 'succeeded', at: NOW - 2 * DAY },
    ],
    sameFile: [{ id: 'B-1010', state: 'denied', at: NOW - 3 * DAY }],
    newDestinations: [12],
    repeatsInFile: [{ row: 9, of: 8 }],
  });

  it('leads with the unknown repeat in bold, then the same file, other repeats, new beneficiaries, repeats in the file', () => {
    expect(batchWarningLines(b, NOW)).toEqual([
      ':rotating_light: *row 7 repeats B-1012.4, whose outcome is UNKNOWN — check it first*',
      ':warning: *Same file:* the same payments (kind, wallet, asset, destinations and amounts) were submitted as B-1010, 3 days before this batch; it is denied',
      ':warning: *Repeat:* row 3 repeats R-1041.1 (succeeded, requested 2 days before this batch)',
      ':warning: *New destinations:* row 12 pays a beneficiary Rampart has never paid',
      ':warning: *Repeat:* row 9 repeats row 8 of this file (same destination and amount)',
    ]);
  });

  it('counts the repeated rows it does not name', () => {
    const many = facts({
      repeats: Array.from({ length: 50 }, (_, i) => ({
        row: i + 2,
        of: `R-${i}.1`,
        state: 'succeeded' as const,
        at: NOW,
      })),
      repeatedRows: 70,
    });
    const lines = batchWarningLines(many, NOW);
    expect(lines.filter((l) => l.includes('*Repeat:*'))).toHaveLength(10);
    expect(lines).toContain('…and 60 more rows repeating an earlier payment');
  });

  it('asks the approver to confirm the rows by kind of warning', () => {
    expect(checkedWarnings(sealed({ batch: b }))).toBe(
      'I checked rows 3, 7 and 9 (repeats), row 12 (new destination) and the earlier B-1010 (same file).',
    );
    expect(checkedWarnings(sealed({ batch: facts({}) }))).toBeUndefined();
  });
});

describe('a single card', () => {
  it('names the earlier payments, an unknown one in bold', () => {
    const f = sealed({
      repeats: [
        { of: 'R-1040.1', state: 'unknown', at: NOW - DAY },
        { of: 'R-1041.1', state: 'succeeded', at: NOW - 2 * DAY },
      ],
    });
    expect(requestRepeatLines(f)).toEqual([
      ':rotating_light: *This payment repeats R-1040.1, whose outcome is UNKNOWN — check it first*',
      ':warning: *Repeat:* this payment repeats R-1041.1 (succeeded, requested 2 days before this one)',
    ]);
    expect(checkedWarnings(f)).toBe(
      'I checked R-1040.1, R-1041.1, which this payment repeats (an outcome UNKNOWN among them).',
    );
    expect(checkedWarnings(sealed({ newReceiver: true }))).toBeUndefined();
  });
});
