import { describe, expect, it } from 'vitest';
import { readBeneficiaryCsv } from '../../src/cli/beneficiary-csv.js';

const HEADER = 'beneficiary_id,identity_id,label,bank_name,account_last4';
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('reading a beneficiaries file', () => {
  it('reads quoted values with commas, CRLF, a BOM and columns in any order, with line numbers', () => {
    const read = readBeneficiaryCsv(
      utf8(
        '\uFEFFlabel,beneficiary_id,identity_id,bank_name,account_last4\r\n"Ada, Ikeja",ben_1,idn_1,GTBank,6789\r\n\r\nBola,ben_2,idn_1,Access,7890\r\n',
      ),
    );
    expect(read.problems).toEqual([]);
    expect(read.rows).toEqual([
      {
        line: 2,
        input: {
          beneficiary_id: 'ben_1',
          identity_id: 'idn_1',
          label: 'Ada, Ikeja',
          bank_name: 'GTBank',
          account_last4: '6789',
        },
      },
      {
        line: 4,
        input: {
          beneficiary_id: 'ben_2',
          identity_id: 'idn_1',
          label: 'Bola',
          bank_name: 'Access',
          account_last4: '7890',
        },
      },
    ]);
  });

  it('refuses a file that is not UTF-8', () => {
    const latin1 = Uint8Array.from([...utf8(`${HEADER}\nben_1,idn_1,Ad`), 0xe9, ...utf8(',GTBank,6789\n')]);
    expect(readBeneficiaryCsv(latin1).problems).toEqual([
      { line: 0, message: 'The file is not UTF-8 text; save it as "CSV UTF-8" and try again.' },
    ]);
  });

  it('names an unclosed quote by line, and keeps rows with too many values out', () => {
    expect(readBeneficiaryCsv(utf8(`${HEADER}\nben_1,idn_1,"Ada,GTBank,6789\n`)).problems[0]?.message).toMatch(
      /^The CSV cannot be read here: /,
    );
    const read = readBeneficiaryCsv(
      utf8(`${HEADER}\nben_1,idn_1,Ada,Ikeja,GTBank,6789\nben_2,idn_1,Bola,Access,7890\n`),
    );
    expect(read.problems).toEqual([
      { line: 2, message: 'Line 2 has 6 values but the header has 5; quote values that hold a comma.' },
    ]);
    expect(read.rows.map((r) => r.line)).toEqual([3]);
  });

  it('says an empty file or a header alone has nothing to import', () => {
    expect(readBeneficiaryCsv(utf8('')).problems[0]?.message).toContain('The file is empty');
    expect(readBeneficiaryCsv(utf8(`${HEADER}\n`)).problems[0]?.message).toContain('no rows');
  });
});
