/** Receiver addresses per chain kind: EVM with EIP-55 checksum, Solana base58 of 32 bytes. */
import { base58 } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressProblem,
  evmAddressProblem,
  isValidAddress,
  shortAddress,
  solanaAddressProblem,
  toChecksumAddress,
} from '../../../src/domain/address.js';

// EIP-55's own examples.
const EIP55 = ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'];
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const isMixed = (body: string) => body !== body.toLowerCase() && body !== body.toUpperCase();

describe('EVM addresses', () => {
  it.each(EIP55)('checksums %s as EIP-55 does', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(evmAddressProblem(address)).toBeUndefined();
  });

  it('accepts all-lowercase and all-uppercase forms (no checksum to check)', () => {
    const address = EIP55[0] as string;
    expect(evmAddressProblem(address.toLowerCase())).toBeUndefined();
    expect(evmAddressProblem(`0x${address.slice(2).toUpperCase()}`)).toBeUndefined();
  });

  it.each([
    ['too short', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    ['too long', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0'],
    ['no 0x', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00'],
    ['not hex', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg'],
  ])('refuses an address that is %s', (_why, address) => {
    expect(evmAddressProblem(address)).toMatch(/0x followed by 40 hexadecimal/);
  });

  it('refuses a capital 0X prefix, naming it, rather than rewriting what is sealed and sent', () => {
    const body = (EIP55[0] as string).slice(2);
    for (const typed of [`0X${body}`, `0X${body.toUpperCase()}`, `0X${body.toLowerCase()}`])
      expect(evmAddressProblem(typed)).toBe(
        'It starts with a capital 0X: an EVM address starts with a lower-case 0x, followed by 40 hexadecimal characters.',
      );
  });

  it('refuses a mixed-case address with a wrong checksum', () => {
    expect(evmAddressProblem('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(/checksum/);
  });

  it('trims blanks around a pasted address', () => {
    expect(addressProblem('evm', `  ${EIP55[0]}\n`)).toBeUndefined();
  });

  it('any checksummed address validates', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const address = toChecksumAddress(hex(bytes));
        expect(evmAddressProblem(address)).toBeUndefined();
        expect(isValidAddress('evm', address)).toBe(true);
      }),
    );
  });

  it('flipping the case of one letter of a checksummed address is refused', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(), (bytes, pick) => {
        const address = toChecksumAddress(hex(bytes));
        const letters = [...address.slice(2)].flatMap((ch, i) => (/[a-f]/i.test(ch) ? [i + 2] : []));
        fc.pre(letters.length > 0);
        const at = letters[pick % letters.length] as number;
        const ch = address[at] as string;
        const flipped =
          address.slice(0, at) +
          (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()) +
          address.slice(at + 1);
        // All one case carries no checksum, so only a flip that leaves mixed case can be caught.
        fc.pre(isMixed(flipped.slice(2)));
        expect(evmAddressProblem(flipped)).toMatch(/checksum/);
      }),
    );
  });
});

describe('Solana addresses', () => {
  it('accepts a known address', () => {
    expect(solanaAddressProblem('CinVW8Y4g8PeYfQva7fwvzTi8yR9jKTpHCDMXXPUYS4E')).toBeUndefined();
  });

  it('refuses characters outside base58', () => {
    expect(solanaAddressProblem('0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl')).toMatch(/base58/);
  });

  it('refuses an EVM address', () => {
    expect(isValidAddress('svm', EIP55[0] as string)).toBe(false);
  });

  it('any 32 bytes in base58 validate', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        expect(solanaAddressProblem(base58.encode(bytes))).toBeUndefined();
      }),
    );
  });

  it.each([31, 33])('%i bytes are refused, naming the length', (length) => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: length, maxLength: length }), (bytes) => {
        expect(solanaAddressProblem(base58.encode(bytes))).toBe(
          `A Solana address decodes to 32 bytes; this one decodes to ${length}.`,
        );
      }),
    );
  });
});

describe('shortAddress', () => {
  it('keeps the start and the end of a long address', () => {
    expect(shortAddress(EIP55[0] as string)).toBe('0x5aAe…eAed');
    expect(shortAddress('short')).toBe('short');
  });
});
