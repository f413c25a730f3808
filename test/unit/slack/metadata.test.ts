/** private_metadata written whole and read safely, in one place. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requestModal } from '../../../src/adapters/slack/blocks/request-modal.js';
import {
  encodeMetadata,
  METADATA_LIMIT,
  METADATA_PROBLEM,
  readMetadata,
} from '../../../src/adapters/slack/metadata.js';
import { parseRequestText } from '../../../src/domain/command-text.js';

const wallets = [{ alias: 'ops', id: 'wal_1' }];
/** Any code point, lone surrogates included: fast-check's own `unit: 'binary'` builds a table on first use that costs seconds. */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));

describe('private_metadata', () => {
  it('is written whole or as a smaller candidate, never cut', () => {
    const big = { note: 'x'.repeat(METADATA_LIMIT) };
    expect(encodeMetadata(big, { id: 1 })).toBe('{"id":1}');
    expect(encodeMetadata({ id: 1 })).toBe('{"id":1}');
  });

  it('reads bad, missing or wrong-shaped metadata as one sentence, never a throw', () => {
    const schema = z.object({ requestId: z.string() });
    for (const raw of ['{"requestId":"R-1', 'null', '[]', '{"requestId":5}', undefined, ''])
      expect(readMetadata(schema, raw)).toEqual({ ok: false, problem: METADATA_PROBLEM });
    expect(readMetadata(schema, '{"requestId":"R-1"}')).toEqual({ ok: true, value: { requestId: 'R-1' } });
    expect(readMetadata(z.object({ channel: z.string().optional() }), '')).toEqual({ ok: true, value: {} });
  });

  it('of the request modal is valid JSON within the limit whatever the command text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3500, unit: anyCodePoint }), (text) => {
        const prefill = parseRequestText(text);
        const view = requestModal({ kind: 'transfer', channel: 'C0GENERAL', prefill }, wallets, prefill);
        const raw = view.private_metadata ?? '';
        expect(raw.length).toBeLessThanOrEqual(METADATA_LIMIT);
        expect(JSON.parse(raw)).toMatchObject({ kind: 'transfer', channel: 'C0GENERAL' });
      }),
      { numRuns: 100 },
    );
  });

  it('keeps the pre-fill when it fits, and drops only the reason when it does not', () => {
    const prefill = parseRequestText(`25 base:usdc to 0xabc for ${'\u0001'.repeat(600)}`);
    const view = requestModal({ kind: 'transfer', channel: 'C1', prefill }, wallets, prefill);
    expect(JSON.parse(view.private_metadata ?? '')).toEqual({
      kind: 'transfer',
      channel: 'C1',
      prefill: { amount: '25', asset: 'base:usdc', receiver: '0xabc' },
    });
  });
});
