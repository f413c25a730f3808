/** `paid` carries the proof its call's chain or service gives, and nothing else. */
import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { paidProofProblem } from '../../../src/domain/paid-proof.js';
import type { ServiceCall } from '../../../src/domain/request.js';

const on = (asset: 'base:usdc' | 'solana:usdc'): ServiceCall => ({
  kind: 'transfer',
  body: { wallet_id: 'wal_ops', amount: 5, receiver: 'x', asset },
});
const offramp: ServiceCall = {
  kind: 'offramp',
  body: { wallet_id: 'wal_ops', amount: 5, beneficiary_id: 'ben_1', asset: 'base:usdc' },
};
const EVM = `0x${'ab'.repeat(32)}`;
const SOLANA = base58.encode(randomBytes(64));

describe('paidProofProblem', () => {
  it('takes an EVM transaction hash on an EVM chain and refuses 0xabc, an address and a Solana signature', () => {
    expect(paidProofProblem(on('base:usdc'), EVM)).toBeUndefined();
    expect(paidProofProblem(on('base:usdc'), '0xabc')).toMatch(/not a Base transaction hash: it is 0x followed by 64/);
    expect(paidProofProblem(on('base:usdc'), `0x${'ab'.repeat(20)}`)).toMatch(/not a Base transaction hash/);
    expect(paidProofProblem(on('base:usdc'), SOLANA)).toMatch(
      /That is a Solana signature, but this transfer was on Base/,
    );
  });

  it('takes a base58 64-byte signature on Solana and refuses an EVM hash or a 32-byte key', () => {
    expect(paidProofProblem(on('solana:usdc'), SOLANA)).toBeUndefined();
    expect(paidProofProblem(on('solana:usdc'), EVM)).toMatch(
      /That is an EVM \(0x…\) hash, but this transfer was on Solana/,
    );
    expect(paidProofProblem(on('solana:usdc'), base58.encode(randomBytes(32)))).toMatch(
      /not a Solana transaction signature/,
    );
  });

  it('takes an offramp’s payout reference, not a transaction hash', () => {
    expect(paidProofProblem(offramp, 'OFR-3F2A9C1B7E44')).toBeUndefined();
    expect(paidProofProblem(offramp, EVM)).toMatch(/payout reference/);
    expect(paidProofProblem(offramp, 'a b')).toMatch(/not a payout reference/);
  });
});
