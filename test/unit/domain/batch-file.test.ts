/** Reading a batch file: the format, every refusal as one sentence, rows as people count them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountToString } from '../../../src/domain/amount.js';
import { assetInfo } from '../../../src/domain/assets.js';
import { type BatchFileRead, MAX_BATCH_FILE_BYTES, readBatchFile } from '../../../src/domain/batch-file.js';

const BASE_USDC = assetInfo('base:usdc');
const SOL_USDC = assetInfo('solana:usdc');
const EVM_A = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const EVM_B = '0x52908400098527886E0F7030069857D2E4169EE7';
const SOL_A = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

const read = (text: string | Uint8Array, kind: 'transfers' | 'offramps' = 'transfers', maxRows = 1000) =>
  readBatchFile(typeof text === 'string' ? new TextEncoder().encode(text) : text, {
    kind,
    asset: BASE_USDC,
    maxRows,
  });

const errorsOf = (r: BatchFileRead) =>
  r.kind === 'invalid' ? [...r.fileErrors, ...r.rowErrors.map((e) => e.message)] : [];

describe('readBatchFile: the format', () => {
  it('reads a transfers file with columns in any order, a BOM, CRLF and an optional reference', () => {
    const r = read(`\uFEFFamount,reference,receiver\r\n250,inv 118,${EVM_A}\r\n12.5,,${EVM_B}\r\n`);
    expect(r).toEqual({
      kind: 'read',
      rows: [
        { row: 2, destination: EVM_A, amount: { units: 250_000_000n, decimals: 6 }, reference: 'inv 118' },
        { row: 3, destination: EVM_B, amount: { units: 12_500_000n, decimals: 6 }, reference: undefined },
      ],
    });
  });

  it('reads an offramps file without a reference column; quoted values may hold commas', () => {
    const r = read('beneficiary,amount\nben_4c1d9e,"1,250.50"\nAcme Ltd payroll,10\n', 'offramps');
    expect(r.kind === 'read' && r.rows.map((x) => [x.row, x.destination, amountToString(x.amount)])).toEqual([
      [2, 'ben_4c1d9e', '1250.5'],
      [3, 'Acme Ltd payroll', '10'],
    ]);
  });

  it('says what is wrong with each receiver value, one problem per row', () => {
    const typo = '0x99ED2e97Z62533BA814aF8092b93b9a3090DEdcF'; // 'Z' is the 11th character
    const short = '0x99ED2e97162533BA814aF8092b93b9a3090DEdc';
    expect(errorsOf(read(`receiver,amount\n${typo},1\n${short},2\n`))).toEqual([
      "Row 2 receiver: Not hexadecimal ('Z' at character 11): an EVM address is 0x followed by 40 hexadecimal characters. (base:usdc is on Base)",
      'Row 3 receiver: It has 39 characters after 0x: an EVM address is 0x followed by 40 hexadecimal characters. (base:usdc is on Base)',
    ]);
  });

  it('checks receivers for the asset chain: a Solana address on base is refused, on solana accepted', () => {
    // The transfer form's sentence for the same mistake.
    expect(errorsOf(read(`receiver,amount\n${SOL_A},1\n`))).toEqual([
      'Row 2 receiver: That is a Solana address, but base:usdc is on Base: choose solana:usdc to send on Solana, or paste a 0x address for Base.',
    ]);
    const ok = readBatchFile(new TextEncoder().encode(`receiver,amount\n${SOL_A},1\n`), {
      kind: 'transfers',
      asset: SOL_USDC,
      maxRows: 10,
    });
    expect(ok.kind).toBe('read');
  });

  it('ignores empty rows at the end, as editors leave them', () => {
    expect(read(`receiver,amount\n${EVM_A},1\n\n,\n\n`).kind).toBe('read');
  });
});

describe('readBatchFile: refusals, one sentence each', () => {
  it.each([
    [
      'a wrong header',
      `to,amount,receiver\n${EVM_A},1,${EVM_A}\n`,
      'The header names an unknown column "to"; a transfers file has only receiver,amount (and optionally reference).',
    ],
    [
      'a missing column',
      `receiver,reference\n${EVM_A},x\n`,
      'The header has no amount column; a transfers file needs receiver,amount (and optionally reference).',
    ],
    [
      'no header at all',
      `${EVM_A},1\n${EVM_B},2\n`,
      "The first row must name the columns: receiver,amount (and optionally reference); this file's first row does not.",
    ],
    [
      'an offramps file for a transfers batch',
      'beneficiary,amount\nben_1,1\n',
      'This is an offramps file (it has a beneficiary column); choose offramps in the form, or upload a transfers file with receiver,amount (and optionally reference).',
    ],
    [
      'a semicolon-separated file',
      `receiver;amount\n${EVM_A};1\n`,
      'The file is separated by semicolons; export it with commas as the separator ("CSV UTF-8").',
    ],
    [
      'an empty file',
      '',
      'The file is empty; its first row names the columns: receiver,amount (and optionally reference).',
    ],
    ['a header only', 'receiver,amount\n', 'The file has a header but no payments.'],
    [
      'a column named twice',
      `receiver,amount,amount\n${EVM_A},1,1\n`,
      'The header names amount twice; keep one amount column.',
    ],
  ])('%s', (_, text, sentence) => {
    expect(errorsOf(read(text))).toEqual([sentence]);
  });

  it('a binary file named .csv', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(errorsOf(read(png))).toEqual([
      'The file is not a UTF-8 text CSV (it looks binary); export it as "CSV UTF-8" and upload again.',
    ]);
    expect(errorsOf(read(Uint8Array.from([0x72, 0xff, 0xfe, 0x2c])))).toHaveLength(1);
  });

  it('a file over 1 MB, before reading a row of it', () => {
    const big = new Uint8Array(2 * 1_048_576).fill(0x41);
    expect(errorsOf(read(big))).toEqual(['The file is 2.0 MB; a batch file may be at most 1 MB, so split it.']);
    expect(MAX_BATCH_FILE_BYTES).toBe(1_048_576);
  });

  it('more rows than BATCH_MAX_ROWS (5,001 against 5,000)', () => {
    const rows = Array.from({ length: 5001 }, () => `${EVM_A},1`).join('\n');
    expect(errorsOf(read(`receiver,amount\n${rows}\n`, 'transfers', 5000))).toEqual([
      'The file has 5001 payments; a batch may have at most 5000, so split it.',
    ]);
    expect(read(`receiver,amount\n${rows}\n`, 'transfers', 5001).kind).toBe('read');
  });

  it('collects every row error with the row a spreadsheet shows (header = row 1), not just the first', () => {
    const text = [
      'receiver,amount,reference',
      `${EVM_A},12,50,x`, // row 2: four values
      `${EVM_A},"12,50",ok`, // row 3: decimal comma
      '', // row 4: empty in the middle
      `${EVM_A},-1,all`, // row 5
      `${EVM_A},1.1234567,x`, // row 6: too many decimals
      `${EVM_A.toLowerCase().replace('99ed', '99eD')},5,x`, // row 7: bad checksum
      `${EVM_A},5,=1+2`, // row 8: formula
      `${EVM_A},5, @SUM(A1)`, // row 9: blank then @
      `${EVM_A},-5,x`, // row 10: negative
      `+${EVM_A},5,x`, // row 11: formula in the receiver
      `${EVM_A},0,x`, // row 12: zero
    ].join('\n');
    const r = read(text);
    expect(r.kind === 'invalid' && r.rowErrors.map((e) => [e.row, e.column])).toEqual([
      [2, undefined],
      [3, 'amount'],
      [4, undefined],
      [5, 'amount'],
      [6, 'amount'],
      [7, 'receiver'],
      [8, 'reference'],
      [9, 'reference'],
      [10, 'amount'],
      [11, 'receiver'],
      [12, 'amount'],
    ]);
    expect(errorsOf(r)).toEqual([
      'Row 2: it has 4 values but the header has 3; quote any value that holds a comma.',
      'Row 3 amount: "12,50" is not an amount: a comma may only group thousands (1,250.50); use a point for decimals, e.g. 12.50.',
      'Row 4: the row is empty; remove empty rows between payments.',
      'Row 5 amount: -1 (the entire balance) is not allowed in a batch; write the exact amount to pay.',
      'Row 6 amount: This asset has 6 decimal places; 1.1234567 has 7.',
      'Row 7 receiver: This EVM address fails its EIP-55 checksum (a character is mistyped); copy it again from the source. (base:usdc is on Base)',
      'Row 8 reference: "=1+2" starts like a spreadsheet formula (= + - @); remove that character.',
      'Row 9 reference: "@SUM(A1)" starts like a spreadsheet formula (= + - @); remove that character.',
      'Row 10 amount: "-5" starts like a formula or a negative number; write a positive amount such as 250.',
      `Row 11 receiver: "+0x99ED2e••••2533BA8" starts like a spreadsheet formula (= + - @); remove that character.`,
      'Row 12 amount: The amount must be more than zero.',
    ]);
  });

  it('an offramp beneficiary cell holding an account number is echoed masked', () => {
    const r = read('beneficiary,amount\n=0123456789,5\n', 'offramps');
    expect(errorsOf(r).join(' ')).not.toContain('0123456789');
  });
});

describe('readBatchFile: properties', () => {
  const amount = fc
    .tuple(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 999_999 }))
    .filter(([w, f]) => w + f > 0)
    .map(([w, f]) => `${w}.${String(f).padStart(6, '0')}`);
  const row = fc.record({
    receiver: fc.constantFrom(EVM_A, EVM_B, EVM_A.toLowerCase()),
    amount,
    reference: fc.stringMatching(/^[a-z0-9 ]{0,20}$/),
  });

  it('any well-formed file reads back every row, in order, with exact amounts, whatever the column order', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), fc.boolean(), (rows, swap) => {
        const header = swap ? 'amount,receiver,reference' : 'receiver,amount,reference';
        const lines = rows.map((r) =>
          swap ? `${r.amount},${r.receiver},${r.reference}` : `${r.receiver},${r.amount},${r.reference}`,
        );
        const r = read([header, ...lines].join('\n'));
        if (r.kind !== 'read') return false;
        return r.rows.every(
          (x, i) =>
            x.row === i + 2 &&
            x.destination === rows[i]?.receiver &&
            amountToString(x.amount) ===
              amountToString({ units: BigInt((rows[i]?.amount ?? '').replace('.', '')), decimals: 6 }),
        );
      }),
    );
  });

  it('a formula cell anywhere is refused with its row and column, never read', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.constantFrom('=', '+', '-', '@', ' =', '\t+', '  @'),
        (rows, at, lead) => {
          const i = at % rows.length;
          const lines = rows.map((r, j) => `${r.receiver},${r.amount},${j === i ? `${lead}cmd|x` : r.reference}`);
          const r = read(['receiver,amount,reference', ...lines].join('\n'));
          return r.kind === 'invalid' && r.rowErrors.some((e) => e.row === i + 2 && e.column === 'reference');
        },
      ),
    );
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const r = read(bytes);
        return r.kind === 'read' || r.fileErrors.length + r.rowErrors.length > 0;
      }),
    );
  });
});
