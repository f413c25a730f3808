/**
 * The sealed call's one codec: the code reads and writes `sealed`, the approval hash keeps the
 * field it has always had, so records written before the rename read back unchanged.
 */
import { describe, expect, it } from 'vitest';
import { redactSealed } from '../../../src/domain/redact.js';
import { recordOf } from '../../../src/store/record-view.js';
import {
  decodeSealed,
  encodeSealed,
  maskedFields,
  SEALED_FIELD,
  sealedFields,
} from '../../../src/store/sealed-field.js';
import { buildSealedRequest } from '../../support/factories.js';

const sealed = buildSealedRequest('transfer');

describe('the sealed-call codec', () => {
  it('stores the sealed call under the approval hash field the scripts read', () => {
    expect(SEALED_FIELD).toBe('frozen');
    expect(sealedFields(sealed)).toEqual({ frozen: JSON.stringify(sealed) });
    expect(decodeSealed(encodeSealed(sealed))).toEqual(sealed);
  });

  it('reads an approval hash as written by the create script into record.sealed', () => {
    const record = recordOf(sealed.id, { v: '2', state: 'pending', n: '1', frozen: encodeSealed(sealed) }, {});
    expect(record?.sealed).toEqual(sealed);
  });

  it('reads no record from a hash without the sealed call', () => {
    expect(recordOf(sealed.id, { v: '2', state: 'pending', n: '1' }, {})).toBeUndefined();
  });

  it('gives a final move the masked copy the scripts store, and nothing when already masked', () => {
    const beneficiary = buildSealedRequest('beneficiary');
    const masked = redactSealed(beneficiary, 7);
    const m = maskedFields(beneficiary, 7);
    expect(m?.approval).toEqual({ frozen: JSON.stringify(masked) });
    expect(m?.call).toBe(JSON.stringify(masked.call));
    expect(m?.first).toBe(JSON.stringify({ call: JSON.stringify(masked.call) }));
    expect(maskedFields(masked, 9)).toBeUndefined();
    expect(maskedFields(undefined, 9)).toBeUndefined();
  });
});
