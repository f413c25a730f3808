/**
 * The sanctions list read into destination keys (OFAC's sdn.xml and a plain list), the screening
 * rule and the card's lines.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { destinationKey } from '../../../src/domain/destination-key.js';
import {
  isScreeningCancel,
  type ScreeningMeta,
  screeningLines,
  screeningRule,
  screeningSentence,
} from '../../../src/domain/rules/index.js';
import { readPlainList, readScreeningList, readSdnXml } from '../../../src/domain/screening-list.js';

const SDN = readFileSync(new URL('../../fixtures/screening/sdn.xml', import.meta.url));
const DAY = 86_400_000;

describe('reading OFAC sdn.xml', () => {
  const read = readSdnXml(SDN);
  if (!read.ok) throw new Error(read.problem);
  const { list } = read;

  it('takes every digital-currency address whatever its ticker, EVM lower-cased, and the publication date', () => {
    expect(list.name).toBe('OFAC SDN');
    expect(list.published).toBe('2026-11-27');
    expect(list.keys.sort()).toEqual(
      [
        'evm:0x8589427373d6d84e98730d7795d8f6f8731fda16',
        'evm:0x722122df12d4e14e13ac3b6895a86e84145b6967',
        'evm:0xdd4c48c0b24039969fc16d1cdf626eab821d3384',
        'evm:0x098b716b8aaf21512996dc57eb0615e2383e2f96',
        'trx:TXq2ipdJE7mh4ixJNGWiQsXmHtGD5ViLtS',
        'usdt:TXq2ipdJE7mh4ixJNGWiQsXmHtGD5ViLtS',
        'xbt:12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h',
      ].sort(),
    );
    expect(list.families).toEqual({ evm: 4, trx: 1, usdt: 1, xbt: 1 });
    expect(list.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stores an EVM address under the key a payment to it on any EVM chain has, in any case', () => {
    const listed = new Set(list.keys);
    for (const typed of [
      '0x8589427373d6d84e98730d7795d8f6f8731fda16',
      '0X8589427373D6D84E98730D7795D8F6F8731FDA16'.replace(/^0X/, '0x'),
      '0x8589427373D6D84E98730D7795D8f6f8731FDA16',
    ])
      for (const chain of ['ethereum', 'base', 'arbitrum'] as const)
        expect(listed.has(destinationKey(chain, typed))).toBe(true);
  });

  it('refuses a file that is not the SDN list, or has no date, in one sentence', () => {
    expect(readSdnXml(Buffer.from('<html></html>'))).toEqual({
      ok: false,
      problem: expect.stringContaining('not an OFAC SDN XML file'),
    });
    expect(readSdnXml(Buffer.from('<sdnList></sdnList>'))).toEqual({
      ok: false,
      problem: expect.stringContaining('no publication date'),
    });
    expect(readScreeningList(SDN, '2026-11-28').ok).toBe(true);
  });
});

describe('reading a plain list', () => {
  it('reads one address a line or address,chain,source, with its name and date lines', () => {
    const text =
      '# name: Desk blocklist\n# published: 2026-11-20\naddress,chain,source\n0xAbCdEf0123456789abcdef0123456789ABCDEF01\n7Zb8Q4w1sQ1TDoRJq6cZfDQwG9u4AExhZs8R6PZ5D51r,solana,internal\n';
    const read = readPlainList(Buffer.from(text), '2026-11-28');
    expect(read).toMatchObject({
      ok: true,
      list: {
        name: 'Desk blocklist',
        published: '2026-11-20',
        keys: ['evm:0xabcdef0123456789abcdef0123456789abcdef01', 'solana:7Zb8Q4w1sQ1TDoRJq6cZfDQwG9u4AExhZs8R6PZ5D51r'],
      },
    });
  });

  it('names the line of an address that needs its chain', () => {
    expect(
      readPlainList(Buffer.from('0x1111111111111111111111111111111111111111\nbc1qexample\n'), '2026-11-28'),
    ).toEqual({
      ok: false,
      problem:
        'Line 2: "bc1qexample" is not an EVM address, so it needs its chain: write "bc1qexample,solana" (or its ticker).',
    });
  });
});

const META: ScreeningMeta = {
  name: 'OFAC SDN',
  published: '2026-11-27',
  sha256: '9f3c1a'.padEnd(64, '0'),
  count: 1432,
  families: { evm: 1400, xbt: 32 },
  loadedBy: 'U0ADMIN',
  source: 'sdn.xml',
  loadedAt: 10 * DAY,
  confirmedAt: 10 * DAY,
};
const facts = { mode: 'on' as const, meta: META, key: 'evm:0xabc', listed: false, now: 11 * DAY, maxAgeMs: 7 * DAY };

describe('the screening rule', () => {
  it('refuses a listed destination in every mode but off, and allows the rest', () => {
    expect(screeningRule({ ...facts, listed: true })).toEqual({ ok: false, code: 'screening_listed' });
    expect(screeningRule({ ...facts, mode: 'required', listed: true })).toEqual({
      ok: false,
      code: 'screening_listed',
    });
    expect(screeningRule({ ...facts, mode: 'off', listed: true })).toEqual({ ok: true });
    expect(screeningRule(facts)).toEqual({ ok: true });
    expect(screeningRule({ ...facts, key: 'beneficiary:ben_1', listed: true })).toEqual({ ok: true });
  });

  it('with required, refuses without a list or with a stale one; with on, only warns', () => {
    expect(screeningRule({ ...facts, mode: 'required', meta: undefined })).toEqual({
      ok: false,
      code: 'screening_no_list',
    });
    expect(screeningRule({ ...facts, mode: 'required', now: 18 * DAY })).toEqual({
      ok: false,
      code: 'screening_stale',
    });
    expect(screeningRule({ ...facts, meta: undefined })).toEqual({ ok: true });
    expect(screeningRule({ ...facts, now: 18 * DAY })).toEqual({ ok: true });
  });

  it('names the list and its date in the refusal', () => {
    expect(screeningSentence('screening_listed', META, facts.now)).toBe(
      'This address is on the OFAC SDN list of 2026-11-27, so Rampart will not pay it; check the destination with compliance.',
    );
  });
});

describe('the card lines', () => {
  it('says what was checked: the list, its hash and count; or plainly what was not', () => {
    expect(screeningLines('on', META, 'evm:0xabc', facts.now, facts.maxAgeMs)).toEqual([
      'Screened: OFAC SDN list of 2026-11-27 (sha 9f3c1a…, 1,432 addresses): no match',
    ]);
    expect(screeningLines('on', undefined, 'evm:0xabc', facts.now, facts.maxAgeMs)).toEqual([
      '⚠️ Not screened: no list loaded',
    ]);
    expect(screeningLines('on', META, 'solana:7Zb8', facts.now, facts.maxAgeMs)).toEqual([
      'OFAC SDN lists no Solana addresses; not screened',
    ]);
    expect(screeningLines('on', META, 'evm:0xabc', 18 * DAY, facts.maxAgeMs)[1]).toBe(
      '⚠️ The screening list was last confirmed 8 days ago (older than SCREENING_MAX_AGE)',
    );
    expect(screeningLines('off', META, 'evm:0xabc', facts.now, facts.maxAgeMs)).toEqual([]);
  });
});

describe('a cancel screening made at the start', () => {
  const LISTED = 'listed on OFAC SDN of 2026-11-27; nothing sent';
  const cancel = { at: 1, event: 'cancelled', by: 'rampart', execution: 'R-1.1' };

  it('is told by the code the start stored in its history entry, whatever the words', () => {
    expect(
      isScreeningCancel({ ...cancel, detail: 'on the sanctions list; nothing sent', code: 'screening_listed' }),
    ).toBe(true);
    expect(isScreeningCancel({ ...cancel, detail: 'reworded', code: 'screening_no_list' })).toBe(true);
    expect(isScreeningCancel({ ...cancel, detail: LISTED, code: 'entry_removed' })).toBe(false);
    expect(isScreeningCancel({ ...cancel, event: 'failed', detail: LISTED, code: 'screening_listed' })).toBe(false);
  });

  it('is told by its words on an entry written without a code (older versions)', () => {
    expect(isScreeningCancel({ ...cancel, detail: LISTED })).toBe(true);
    expect(
      isScreeningCancel({
        ...cancel,
        detail: 'the OFAC SDN list of 2026-11-27 is stale and SCREENING=required; nothing sent',
      }),
    ).toBe(true);
    expect(isScreeningCancel({ ...cancel, detail: 'address-book entry removed; nothing sent' })).toBe(false);
    expect(isScreeningCancel({ ...cancel, by: 'U0APPROVER1', detail: LISTED })).toBe(false);
  });
});
