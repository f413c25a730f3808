/** The receipt CSV: columns, offramps "initiated", quoting, and formula cells neutralised. */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type ReceiptRow, receiptCsv } from '../../../src/domain/batch-receipt.js';

const row = (over: Partial<ReceiptRow>): ReceiptRow => ({
  row: 2,
  destination: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
  amount: { units: 250_500_000n, decimals: 6 },
  reference: 'inv 118',
  state: 'succeeded',
  proof: '0xhash',
  error: undefined,
  ...over,
});

describe('receiptCsv', () => {
  it('writes the header and one line per row, exact amounts, CRLF', () => {
    expect(
      receiptCsv('transfers', [
        row({}),
        row({ row: 3, state: 'failed', proof: undefined, error: 'Insufficient funds' }),
      ]),
    ).toBe(
      [
        'row,destination,amount,reference,state,hash or reference,error',
        '2,0x99ED2e97162533BA814aF8092b93b9a3090DEdcF,250.5,inv 118,succeeded,0xhash,',
        '3,0x99ED2e97162533BA814aF8092b93b9a3090DEdcF,250.5,inv 118,failed,,Insufficient funds',
        '',
      ].join('\r\n'),
    );
  });

  it('says "initiated" for an offramp the service accepted, never "succeeded"', () => {
    const csv = receiptCsv('offramps', [
      row({ destination: 'ben_1', proof: 'OFR-77' }),
      row({ row: 3, state: 'unknown', proof: undefined }),
    ]);
    expect((parse(csv, { columns: true }) as Record<string, string>[]).map((r) => r.state)).toEqual([
      'initiated',
      'unknown',
    ]);
  });

  it('neutralises formula cells and quotes commas, quotes and newlines so the file reads back as written', () => {
    const csv = receiptCsv('transfers', [
      row({ reference: '=HYPERLINK("http://evil","x")', error: 'line one\nline, "two"' }),
      row({ row: 3, reference: '@SUM(A1)', error: '+1' }),
    ]);
    const back = parse(csv, { columns: true }) as Record<string, string>[];
    expect(back.map((r) => [r.reference, r.error])).toEqual([
      [`'=HYPERLINK("http://evil","x")`, 'line one\nline, "two"'],
      ["'@SUM(A1)", "'+1"],
    ]);
    for (const r of back) for (const cell of Object.values(r)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('leaves ordinary text alone and guards a formula behind blanks (the shared guard, domain/csv-safe.ts)', () => {
    const csv = receiptCsv('transfers', [row({ reference: 'inv 118', error: ' =1+1' })]);
    const back = parse(csv, { columns: true }) as Record<string, string>[];
    expect(back.map((r) => [r.reference, r.error])).toEqual([['inv 118', "' =1+1"]]);
  });
});
