import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/service/errors.js';
import { parseResponse } from '../../src/service/response.js';
import { rate } from '../../src/service/schemas.js';

describe("the service's own message", () => {
  it('keeps only the last four digits of any long number it echoes (BVN, account number)', () => {
    const body = JSON.stringify({
      success: false,
      status: 404,
      message: 'account 0123456789 for BVN 22233344455 not found',
    });
    let caught: unknown;
    try {
      parseResponse('lookupAccount', rate, 404, body);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ServiceError);
    const message = (caught as ServiceError).serviceMessage ?? '';
    expect(message).toBe('account ••••6789 for BVN ••••4455 not found');
    expect(JSON.stringify(caught)).not.toMatch(/0123456789|22233344455/);
  });
});
