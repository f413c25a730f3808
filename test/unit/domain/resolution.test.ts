/** The words of /resolve and `rampart resolve`, parsed: one sentence per problem. */
import { describe, expect, it } from 'vitest';
import { parseResolution } from '../../../src/domain/resolution.js';

const parse = (text: string) => parseResolution(text.split(' '));
const expectResolved = (text: string, resolution: { id: string; paid: boolean; note: string }) =>
  expect(parse(text), text).toEqual({ ok: true, resolution });

describe('parseResolution', () => {
  it('reads paid with one hash or reference, and not-paid with a reason, on a full execution id', () => {
    expectResolved('r-12.1 paid 0xabc123ef', { id: 'R-12.1', paid: true, note: '0xabc123ef' });
    expectResolved('R-12.1 PAID OFR-2026-11-21/0042', { id: 'R-12.1', paid: true, note: 'OFR-2026-11-21/0042' });
    expectResolved('B-3.7 not-paid no  debit on ops', { id: 'B-3.7', paid: false, note: 'no debit on ops' });
  });

  it('refuses a bare request id: a typo must not settle another payment', () => {
    for (const text of ['R-12 not-paid no debit', 'R-12 paid 0xabc123ef', 'B-7 not-paid no debit']) {
      const r = parse(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.problem).toMatch(/^Name the execution, e\.g\. [RB]-\d+\.1 \(a batch.s row: [RB]-\d+ row 3\)/);
    }
  });

  it('takes a batch row as its card names it, "B-7 row 3", beside its execution id', () => {
    expectResolved('b-7 ROW 3 paid 0xabc123ef', { id: 'B-7 row 3', paid: true, note: '0xabc123ef' });
    expectResolved('B-7 row 3 not-paid no debit', { id: 'B-7 row 3', paid: false, note: 'no debit' });
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
