/**
 * The sealed call's one codec: the code reads and writes `sealed`, the approval hash keeps the
 * field it has always had, so records written before the rename read back unchanged.
 */
import { describe, expect, it } from 'vitest';
import { recordOf } from '../../../src/store/record-view.js';
import { decodeSealed, encodeSealed, SEALED_FIELD, sealedFields } from '../../../src/store/sealed-field.js';
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
});
