/** The words of /resolve and `rampart resolve`, parsed: one sentence per problem. */
import { describe, expect, it } from 'vitest';
import { parseResolution } from '../../../src/domain/resolution.js';

const parse = (text: string) => parseResolution(text.split(' '));

describe('parseResolution', () => {
  it('reads paid with one hash or reference, and not-paid with a reason, on a full execution id', () => {
    expect(parse('r-12.1 paid 0xabc123ef')).toEqual({
      ok: true,
      resolution: { id: 'R-12.1', paid: true, note: '0xabc123ef' },
    });
    expect(parse('R-12.1 PAID OFR-2026-11-21/0042')).toEqual({
      ok: true,
      resolution: { id: 'R-12.1', paid: true, note: 'OFR-2026-11-21/0042' },
    });
    expect(parse('B-3.7 not-paid no  debit on ops')).toEqual({
      ok: true,
      resolution: { id: 'B-3.7', paid: false, note: 'no debit on ops' },
    });
  });

  it('refuses a bare request id: a typo must not settle another payment', () => {
    for (const text of ['R-12 not-paid no debit', 'R-12 paid 0xabc123ef', 'B-7 not-paid no debit']) {
      const r = parse(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.problem).toMatch(/^Name the (execution, e\.g\. R-\d+\.1|row of B-7, e\.g\. B-7 row 3)/);
    }
  });

  it('takes a batch row as its card names it, "B-7 row 3", beside its execution id', () => {
    expect(parse('b-7 ROW 3 paid 0xabc123ef')).toEqual({
      ok: true,
      resolution: { id: 'B-7 row 3', paid: true, note: '0xabc123ef' },
    });
    expect(parse('B-7 row 3 not-paid no debit')).toEqual({
      ok: true,
      resolution: { id: 'B-7 row 3', paid: false, note: 'no debit' },
    });
    const bad = parse('B-7 row three paid 0xabc123ef');
    expect(bad.ok).toBe(false);
  });

  it('names each problem in one sentence', () => {
    const problems: [string, RegExp][] = [
      ['', /^Name the payment/],
      ['R-12#1 paid 0xabc123ef', /is not a request id/],
      ['R-12.1', /^Say whether R-12.1 was paid or not-paid/],
      ['R-12.1 done 0xabc123ef', /is neither paid nor not-paid/],
      ['R-12.1 paid', /^Add the transaction hash/],
      ['R-12.1 paid two words', /is not a hash or reference/],
      ['R-12.1 paid <b>x</b>', /is not a hash or reference/],
      ['R-12.1 not-paid', /^Say why R-12.1 was not paid/],
      [`R-12.1 not-paid ${'x'.repeat(301)}`, /under 300 characters/],
    ];
    for (const [text, expected] of problems) {
      const r = parse(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) {
        expect(r.problem, text).toMatch(expected);
        expect(r.problem.length, text).toBeLessThan(200);
      }
    }
  });
});
