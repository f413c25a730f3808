import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_FILE_BYTES,
  MAX_ROWS,
  readBeneficiaryCsv,
  readBeneficiaryCsvFile,
} from '../../src/adapters/cli/beneficiary-csv.js';

const HEADER = 'beneficiary_id,identity_id,label,bank_name,account_last4';
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('reading a beneficiaries file', async () => {
  it('reads quoted values with commas, CRLF, a BOM and columns in any order, with line numbers', async () => {
    const read = await readBeneficiaryCsv(
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

  it('refuses a file that is not UTF-8', async () => {
    const latin1 = Uint8Array.from([...utf8(`${HEADER}\nben_1,idn_1,Ad`), 0xe9, ...utf8(',GTBank,6789\n')]);
    expect((await readBeneficiaryCsv(latin1)).problems).toEqual([
      { line: 0, message: 'The file is not UTF-8 text; save it as "CSV UTF-8" and try again.' },
    ]);
  });

  it('names an unclosed quote by line, and keeps rows with too many values out', async () => {
    expect((await readBeneficiaryCsv(utf8(`${HEADER}\nben_1,idn_1,"Ada,GTBank,6789\n`))).problems[0]?.message).toMatch(
      /^The CSV cannot be read here: /,
    );
    const read = await readBeneficiaryCsv(
      utf8(`${HEADER}\nben_1,idn_1,Ada,Ikeja,GTBank,6789\nben_2,idn_1,Bola,Access,7890\n`),
    );
    expect(read.problems).toEqual([
      { line: 2, message: 'Line 2 has 6 values but the header has 5; quote values that hold a comma.' },
    ]);
    expect(read.rows.map((r) => r.line)).toEqual([3]);
  });

  it('says an empty file or a header alone has nothing to import', async () => {
    expect((await readBeneficiaryCsv(utf8(''))).problems[0]?.message).toContain('The file is empty');
    expect((await readBeneficiaryCsv(utf8(`${HEADER}\n`))).problems[0]?.message).toContain('no rows');
  });

  it('stops reading a huge file at its first row past the limit (streamed, never read whole)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rampart-csv-'));
    try {
      const file = join(dir, 'huge.csv');
      const row = (i: number) => `ben_${i},idn_1,Payee ${i},GTBank,${String(i % 10_000).padStart(4, '0')}\n`;
      // 400,000 rows: 10,000 written forty times over (the reader never reaches the repeats).
      const rows = Array.from({ length: 10_000 }, (_, i) => row(100_000 + i))
        .join('')
        .repeat(40);
      await writeFile(file, `${HEADER}\n${rows}`);
      const size = Buffer.byteLength(rows);
      expect(size).toBeGreaterThan(15 * 1024 * 1024);
      const read = await readBeneficiaryCsvFile(file);
      expect(read.problems).toEqual([
        {
          line: 0,
          message: `The file has more than ${MAX_ROWS} rows; import at most ${MAX_ROWS} at a time (split the file).`,
        },
      ]);
      // 1,001 rows of ~40 bytes lie in the first 64 KiB chunk: the rest was never read.
      expect(read.bytesRead).toBeLessThanOrEqual(128 * 1024);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops at a byte limit when blank lines never add up to rows, and on an endless source', async () => {
    let pulled = 0;
    async function* endless() {
      yield new TextEncoder().encode(`${HEADER}\n`);
      const blank = new Uint8Array(64 * 1024).fill(0x0a);
      for (;;) {
        pulled += blank.length;
        yield blank;
      }
    }
    const read = await readBeneficiaryCsv(endless());
    expect(read.problems[0]?.message).toMatch(/^The file is larger than 8 MiB/);
    expect(pulled).toBeLessThanOrEqual(MAX_FILE_BYTES + 128 * 1024);
  });

  it('refuses one row longer than any beneficiary without reading on', async () => {
    let pulled = 0;
    async function* oneLongRow() {
      yield new TextEncoder().encode(`${HEADER}\nben_1,idn_1,`);
      for (;;) {
        pulled += 64 * 1024;
        yield new Uint8Array(64 * 1024).fill(0x61);
      }
    }
    const read = await readBeneficiaryCsv(oneLongRow());
    expect(read.problems[0]?.message).toMatch(/^The CSV cannot be read here: /);
    expect(pulled).toBeLessThanOrEqual(128 * 1024);
  });
});
