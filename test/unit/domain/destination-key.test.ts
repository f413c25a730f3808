/** One key per destination: EVM in any valid case is one, Solana only exactly, beneficiaries exactly. Pure. */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { repeatsInFile } from '../../../src/domain/batch-approval.js';
import { fileFingerprint } from '../../../src/domain/batch-hash.js';
import {
  beneficiaryKey,
  callDestination,
  destinationKey,
  keyIn,
  legacyPayee,
  rowKey,
} from '../../../src/domain/destination-key.js';
import { paymentDigest } from '../../../src/domain/repeats.js';
import { buildReport } from '../../../src/domain/report.js';
import { callHash, type RequestRecord, type ServiceCall } from '../../../src/domain/request.js';
import { InputError } from '../../../src/errors.js';
import { buildRecord } from '../../support/factories.js';

const EVM = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const EVM_UPPER = `0x${EVM.slice(2).toUpperCase()}`;
/** Two Solana accounts whose addresses differ only in the case of one letter (both 32 bytes). */
const SOL = '7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r';
const SOL_OTHER = '7Zb8WEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r';

const transfer = (receiver: string, asset = 'base:usdc'): ServiceCall =>
  ({ kind: 'transfer', body: { wallet_id: 'wal_ops', amount: 25, receiver, asset } }) as ServiceCall;

describe('destinationKey', () => {
  it('is one key for an EVM address checksummed, lower-cased or upper-cased', () => {
    const key = destinationKey('base', EVM);
    expect(key).toBe(`evm:${EVM.toLowerCase()}`);
    expect(destinationKey('base', EVM.toLowerCase())).toBe(key);
    expect(destinationKey('base', EVM_UPPER)).toBe(key);
    expect(destinationKey('ethereum', ` ${EVM} `)).toBe(key);
  });

  it('is two keys for two Solana addresses differing only in letter case', () => {
    expect(destinationKey('solana', SOL)).toBe(`solana:${SOL}`);
    expect(destinationKey('solana', SOL_OTHER)).toBe(`solana:${SOL_OTHER}`);
    expect(destinationKey('solana', SOL)).not.toBe(destinationKey('solana', SOL_OTHER));
  });

  it('refuses an address that is not valid on its chain, with the sentence that says why', () => {
    const mistyped = `${EVM.slice(0, -1)}f`;
    expect(() => destinationKey('base', mistyped)).toThrow(InputError);
    expect(() => destinationKey('base', mistyped)).toThrow(/EIP-55 checksum/);
    expect(() => destinationKey('solana', EVM)).toThrow(/base58/);
    expect(() => keyIn('nowhere', EVM)).toThrow(/neither a chain/);
  });

  it('keeps a beneficiary id exactly, and keys every payment by its call', () => {
    expect(keyIn('beneficiary', 'ben_Ab')).toBe(beneficiaryKey('ben_Ab'));
    expect(beneficiaryKey('ben_Ab')).not.toBe(beneficiaryKey('ben_ab'));
    expect(callDestination(transfer(EVM_UPPER))).toEqual({ scope: 'base', key: `evm:${EVM.toLowerCase()}` });
    expect(callDestination(transfer(SOL_OTHER, 'solana:usdc'))).toEqual({
      scope: 'solana',
      key: `solana:${SOL_OTHER}`,
    });
    const offramp = {
      kind: 'offramp',
      body: { wallet_id: 'w', amount: 1, beneficiary_id: 'ben_x', asset: 'base:usdc' },
    };
    expect(callDestination(offramp as ServiceCall)).toEqual({ scope: 'beneficiary', key: 'beneficiary:ben_x' });
    expect(callDestination({ kind: 'register-beneficiary', body: { beneficiaries: [] } })).toBeUndefined();
    expect(callDestination(transfer('0xabc'))).toBeUndefined();
  });
});

describe('repeats and same-file rows by destination key', () => {
  const rows = (destinations: string[]) =>
    destinations.map((destination, i) => ({ row: i + 2, destination, amount: '5' }));

  it('two Solana rows differing only in case are two destinations, not a repeat', () => {
    const keyOf = (d: string) => rowKey('transfers', 'solana', d);
    expect(repeatsInFile(rows([SOL, SOL_OTHER]), keyOf)).toEqual([]);
    expect(repeatsInFile(rows([SOL, SOL]), keyOf)).toEqual([{ row: 3, of: 2 }]);
  });

  it('EVM rows in any case are one destination', () => {
    const keyOf = (d: string) => rowKey('transfers', 'base', d);
    expect(repeatsInFile(rows([EVM, EVM.toLowerCase(), EVM_UPPER]), keyOf)).toEqual([
      { row: 3, of: 2 },
      { row: 4, of: 2 },
    ]);
  });

  it('keeps the digests and fingerprints stored before keys had families', () => {
    const old = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));
    expect(paymentDigest(transfer(EVM))).toBe(old(`base:usdc ${EVM.toLowerCase()} 25`).slice(0, 32));
    expect(paymentDigest(transfer(SOL, 'solana:usdc'))).toBe(old(`solana:usdc ${SOL} 25`).slice(0, 32));
    expect(paymentDigest(transfer(SOL, 'solana:usdc'))).not.toBe(paymentDigest(transfer(SOL_OTHER, 'solana:usdc')));
    const amount = { units: 5_000_000n, decimals: 6 };
    const a = fileFingerprint('transfers', 'wal_ops', 'solana:usdc', [{ destination: SOL, amount }]);
    expect(fileFingerprint('transfers', 'wal_ops', 'solana:usdc', [{ destination: SOL_OTHER, amount }])).not.toBe(a);
    const evm = fileFingerprint('transfers', 'wal_ops', 'base:usdc', [{ destination: EVM, amount }]);
    expect(fileFingerprint('transfers', 'wal_ops', 'base:usdc', [{ destination: EVM_UPPER, amount }])).toBe(evm);
  });
});

describe('legacyPayee: paid-before entries stored lower-cased', () => {
  const none = () => [];
  it('re-keys an EVM entry, and drops a Solana one (its case, part of the address, is lost)', () => {
    expect(legacyPayee(`base:${EVM.toLowerCase()}`, none)).toEqual({ scope: 'base', key: `evm:${EVM.toLowerCase()}` });
    expect(legacyPayee(`solana:${SOL.toLowerCase()}`, none)).toBeUndefined();
    expect(legacyPayee('base:0xnothex', none)).toBeUndefined();
    expect(legacyPayee('nonsense', none)).toBeUndefined();
  });

  it('matches a beneficiary entry to the one registered id it came from, or drops it', () => {
    expect(legacyPayee('beneficiary:ben_ab', () => ['ben_Ab'])).toEqual({
      scope: 'beneficiary',
      key: 'beneficiary:ben_Ab',
    });
    expect(legacyPayee('beneficiary:ben_ab', () => ['ben_Ab', 'ben_aB'])).toBeUndefined();
    expect(legacyPayee('beneficiary:ben_ab', none)).toBeUndefined();
  });
});

describe('the treasury report by destination key', () => {
  const at = Date.UTC(2026, 10, 17, 12);
  const window = { since: at - 86_400_000, until: at + 86_400_000, zone: 'UTC' };
  let n = 0;
  const paid = (call: ServiceCall): RequestRecord => {
    const base = buildRecord('succeeded');
    n += 1;
    // Paid from a wallet whose own address is none of the destinations.
    const display = { ...base.sealed.display, walletAddress: '0x000000000000000000000000000000000000dEaD' };
    return {
      ...base,
      sealed: { ...base.sealed, id: `R-${n}`, call, display, hash: callHash(call) },
      decidedAt: at + n,
    };
  };

  it('lists two Solana addresses differing only in case as two first-time destinations, an EVM one in two cases once', () => {
    const records = [
      paid(transfer(SOL, 'solana:usdc')),
      paid(transfer(SOL_OTHER, 'solana:usdc')),
      paid(transfer(EVM)),
      paid(transfer(EVM.toLowerCase())),
    ];
    const report = buildReport(records, window, () => false);
    expect(report.firstTime.map((p) => p.destination)).toEqual([SOL, SOL_OTHER, EVM]);
    const paidSol = buildReport(records, window, (k) => k === `solana solana:${SOL}`);
    expect(paidSol.firstTime.map((p) => p.destination)).toEqual([SOL_OTHER, EVM]);
  });
});
