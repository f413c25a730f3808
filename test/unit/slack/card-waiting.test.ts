/** A single approved before its address-book entry finished cooling off: the card says it waits. */
import { describe, expect, it } from 'vitest';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { waitsForEntryReply } from '../../../src/domain/address-book.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import { buildRecord } from '../../support/factories.js';

/** Approved at decidedAt; the entry becomes usable `after` ms later (negative: already usable). */
function withEntry(state: 'approved' | 'executing', after: number): RequestRecord {
  const r = buildRecord(state, 'transfer');
  const decidedAt = r.decidedAt ?? 0;
  const bookEntry = {
    id: 'A-7',
    name: 'Acme payroll wallet',
    addedBy: 'U0ADDER',
    approvedBy: 'U0APPROVER2',
    approvedAt: decidedAt - 1_000,
    usableAt: decidedAt + after,
  };
  // A copy: the factory's sealed request is shared between records.
  return { ...r, sealed: { ...r.sealed, display: { ...r.sealed.display, bookEntry } } };
}

describe('a payment waiting for its entry', () => {
  it('says "Waiting: <entry> usable from <date>" on its card, never "held"', () => {
    const r = withEntry('approved', 3_600_000);
    const text = JSON.stringify(requestCardBlocks(r));
    const at = Math.floor(((r.decidedAt ?? 0) + 3_600_000) / 1000);
    expect(text).toContain(`Waiting: *Acme payroll wallet* usable from <!date^${at}^`);
    expect(text).not.toMatch(/held/i);
  });

  it('says nothing of waiting when the entry was usable at approval, or once it runs', () => {
    for (const r of [withEntry('approved', -1), withEntry('executing', 3_600_000)]) {
      const text = JSON.stringify(requestCardBlocks(r));
      expect(text).not.toContain('Waiting:');
    }
  });

  it('keeps the freeze its own word: a frozen waiting payment is held by the freeze', () => {
    const frozen = { freeze: { by: 'U0APPROVER1', at: 1, reason: 'drill' } };
    const text = JSON.stringify(requestCardBlocks(withEntry('approved', 3_600_000), frozen));
    expect(text).toContain('held: Rampart is frozen');
  });

  it('is listed in the entry thread by its id', () => {
    expect(waitsForEntryReply('R-1004')).toMatch(/^R-1004 waits for this entry/);
  });
});
