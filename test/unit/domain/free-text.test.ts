/** Free text others read: what it may hold, the one sentence for what it may not, and the same rule at every door. */
import { describe, expect, it } from 'vitest';
import { checkBatchBody } from '../../../src/adapters/api/batch-fields.js';
import { assetInfo } from '../../../src/domain/assets.js';
import { readBatchFile } from '../../../src/domain/batch-file.js';
import { freeTextProblem, oneLine } from '../../../src/domain/free-text.js';

const EVM_A = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

describe('freeTextProblem', () => {
  it('accepts one line of visible text, mrkdwn and emoji included (they are shown as plain text)', () => {
    for (const ok of ['INV-118', 'Payroll Nov · *bold* <!channel> `x` > quoted', 'Zahlung für März 🚀', 'عربى', ''])
      expect(freeTextProblem(ok, 'the reference')).toBeUndefined();
  });

  it('refuses line breaks, controls, line and paragraph separators and bidi controls, naming the character', () => {
    expect(freeTextProblem('INV-1\n*Amount:* 25.00', 'the reference')).toBe(
      'the reference holds a line break (U+000A); write it on one line with visible characters only.',
    );
    expect(freeTextProblem('a\u202Eb', 'the reference')).toBe(
      'the reference holds an invisible text-direction control (U+202E); write it on one line with visible characters only.',
    );
    expect(freeTextProblem('a\u2028b', 'the reference')).toMatch(/a line break \(U\+2028\)/);
    expect(freeTextProblem('a\tb', 'the reference')).toMatch(/a tab \(U\+0009\)/);
    expect(freeTextProblem('a\u0007b', 'the reference')).toMatch(/a control character \(U\+0007\)/);
    for (const c of ['\r', '\u2029', '\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069'])
      expect(freeTextProblem(`x${c}y`, 'the reference'), `U+${c.codePointAt(0)?.toString(16)}`).toBeDefined();
    for (const c of ['\u200E', '\u200F', '\u061C', '\u0085', '\u007F'])
      expect(freeTextProblem(`x${c}y`, 'the reference'), `U+${c.codePointAt(0)?.toString(16)}`).toBeDefined();
  });

  it('oneLine shows stored text on one line without those characters', () => {
    expect(oneLine('a\n\n*Amount:* 25\u2028b\u202Ec')).toBe('a *Amount:* 25 b c');
  });
});

describe('a reference with a line break or a bidi control, at each door', () => {
  const asset = assetInfo('base:usdc');
  it('a batch file refuses it with the row, the column and the sentence', () => {
    const csv = `receiver,amount,reference\n${EVM_A},10,"INV-1\n*Amount:* 25.00"\n${EVM_A},11,INV\u202E2\n`;
    const r = readBatchFile(new TextEncoder().encode(csv), { kind: 'transfers', asset, maxRows: 10 });
    expect(r.kind === 'invalid' ? r.rowErrors.map((e) => e.message) : []).toEqual([
      'Row 2 reference: the reference holds a line break (U+000A); write it on one line with visible characters only.',
      'Row 3 reference: the reference holds an invisible text-direction control (U+202E); write it on one line with visible characters only.',
    ]);
  });

  it('the HTTP API refuses it at the row’s JSON pointer with the same sentence', () => {
    const checked = checkBatchBody(
      {
        kind: 'transfers',
        wallet: 'ops',
        asset: 'base:usdc',
        rows: [{ receiver: EVM_A, amount: '10', reference: 'INV-1\u2029<!channel>' }],
      },
      [{ alias: 'ops', id: 'wal_ops_7f3a' }],
      10,
    );
    expect(checked.ok ? [] : checked.errors).toEqual([
      {
        pointer: '/rows/0/reference',
        detail:
          'Row 1 reference: the reference holds a line break (U+2029); write it on one line with visible characters only.',
      },
    ]);
  });
});
