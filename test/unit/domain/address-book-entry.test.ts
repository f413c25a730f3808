/** An entry as typed: each problem names the input it is about, so every door says it there. Pure. */
import { describe, expect, it } from 'vitest';
import { entryProblem } from '../../../src/domain/address-book.js';

const ADDRESS = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

describe('entryProblem', () => {
  it.each([
    ['name', { name: '  ', chain: 'base', address: ADDRESS }],
    ['name', { name: 'x'.repeat(61), chain: 'base', address: ADDRESS }],
    ['chain', { name: 'Acme payroll wallet', chain: 'tron', address: ADDRESS }],
    ['address', { name: 'Acme payroll wallet', chain: 'base', address: '0x99ED' }],
  ])('says a problem with the %s on that field', (field, typed) => {
    expect(entryProblem(typed)).toMatchObject({ field, message: expect.any(String) });
  });

  it('finds nothing wrong with a named entry on a known chain', () => {
    expect(entryProblem({ name: 'Acme payroll wallet', chain: 'base', address: ADDRESS })).toBeUndefined();
  });
});
