/** The Idempotency-Key rule: records last 7 days; an answered one replays the same body and refuses another. */
import { describe, expect, it } from 'vitest';
import { liveRecord, RETENTION_MS, replayOutcome } from '../../../src/domain/idempotency.js';

const NOW = 1_800_000_000_000;

describe('liveRecord', () => {
  it('keeps a record for 7 days by the clock given, and not a moment longer', () => {
    const r = { fingerprint: 'f', since: NOW };
    expect(liveRecord(r, NOW + RETENTION_MS - 1)).toBe(r);
    expect(liveRecord(r, NOW + RETENTION_MS)).toBeUndefined();
    expect(liveRecord(undefined, NOW)).toBeUndefined();
  });
});

describe('replayOutcome', () => {
  const answer = { status: 201, body: { id: 'R-1' } };
  it('replays the answer for the same fingerprint and refuses another body with idempotency_key_reused', () => {
    expect(replayOutcome({ fingerprint: 'f', since: NOW, answer }, 'f')).toEqual({ kind: 'replay', answer });
    expect(replayOutcome({ fingerprint: 'f', since: NOW, answer }, 'g')).toEqual({
      kind: 'reused',
      code: 'idempotency_key_reused',
    });
  });

  it('says nothing while no answer is kept (none yet, or a record still in flight)', () => {
    expect(replayOutcome(undefined, 'f')).toEqual({ kind: 'none' });
    expect(replayOutcome({ fingerprint: 'g', since: NOW }, 'f')).toEqual({ kind: 'none' });
  });
});
