/** Which requests need a passkey, and the challenge a passkey signs. Pure. */
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { approvalHashOf as approvalHashOfCalls, cardHash } from '../../../src/domain/approval.js';
import { redactSealed } from '../../../src/domain/redact.js';
import { callHash } from '../../../src/domain/request.js';
import {
  needsStepUp,
  sealedApprovalHash,
  stepUpChallenge,
  stepUpChallengeV2,
  v1ApprovalHash,
  votePurpose,
} from '../../../src/domain/step-up.js';
import { buildSealedRequest } from '../../support/factories.js';

const usdc = (units: bigint) => ({ units, decimals: 6 });

describe('needsStepUp', () => {
  const settings = { above: { USDC: '10000' }, newDestination: false };
  it('needs a passkey above the threshold only, on the sealed amount', () => {
    const at = (units: bigint) => ({ kind: 'transfer' as const, assetCode: 'USDC', amount: usdc(units) });
    expect(needsStepUp(settings, { ...at(20_000_000_000n), newDestination: false })).toBe(true);
    expect(needsStepUp(settings, { ...at(10_000_000_000n), newDestination: false })).toBe(false);
  });
  it('needs one for an asset the setting does not name (default-deny), and none when unset', () => {
    expect(needsStepUp(settings, { kind: 'offramp', assetCode: 'USDT', amount: usdc(1n), newDestination: false })).toBe(
      true,
    );
    const off = { above: undefined, newDestination: false };
    expect(needsStepUp(off, { kind: 'transfer', amount: usdc(1n), newDestination: false })).toBe(false);
  });
  it('needs one for new destinations when STEP_UP_NEW_DESTINATION is on', () => {
    const on = { above: undefined, newDestination: true };
    expect(needsStepUp(on, { kind: 'beneficiary' })).toBe(true);
    expect(needsStepUp(on, { kind: 'transfer', assetCode: 'USDC', amount: usdc(1n), newDestination: true })).toBe(true);
    expect(needsStepUp(on, { kind: 'transfer', assetCode: 'USDC', amount: usdc(1n), newDestination: false })).toBe(
      false,
    );
  });
  it('counts a registration of existing beneficiaries and an offramp to a never-paid beneficiary as new destinations', () => {
    const on = { above: { USDC: '10000' }, newDestination: true };
    expect(needsStepUp(on, { kind: 'register-beneficiary' })).toBe(true);
    expect(needsStepUp({ ...on, newDestination: false }, { kind: 'register-beneficiary' })).toBe(false);
    const small = { kind: 'offramp' as const, assetCode: 'USDC', amount: usdc(300_000_000n) };
    expect(needsStepUp(on, { ...small, newDestination: true })).toBe(true);
    expect(needsStepUp(on, { ...small, newDestination: false })).toBe(false);
  });
});

describe('stepUpChallenge', () => {
  const inputs = { approvalId: 'R-1001', approvalHash: 'ab'.repeat(32), approverId: 'U0APPROVER1', nonce: 'n' };
  it('is SHA-256 over the domain, approval id, hash, approver and nonce, each NUL-ended', () => {
    const expected = sha256(
      new TextEncoder().encode(`rampart-stepup-v1\0R-1001\0${'ab'.repeat(32)}\0U0APPROVER1\0n\0`),
    );
    expect(stepUpChallenge(inputs)).toEqual(expected);
  });
  it('changes with every input', () => {
    const base = Buffer.from(stepUpChallenge(inputs)).toString('hex');
    for (const k of Object.keys(inputs) as (keyof typeof inputs)[])
      expect(Buffer.from(stepUpChallenge({ ...inputs, [k]: `${inputs[k]}x` })).toString('hex')).not.toBe(base);
  });
  it('v1 committed to the full hash of the sealed call', () => {
    expect(v1ApprovalHash({ call })).toHaveLength(64);
    expect(v1ApprovalHash({ call: { ...call, body: { ...call.body, amount: 2 } } })).not.toBe(v1ApprovalHash({ call }));
  });
});

const call = {
  kind: 'transfer' as const,
  body: { wallet_id: 'w', amount: 1, receiver: 'r', asset: 'base:usdc' as const },
};

describe('stepUpChallengeV2', () => {
  const inputs = {
    purpose: 'confirm-not-paid' as const,
    subject: 'R-1001.1',
    hash: 'ab'.repeat(32),
    approverId: 'U0APPROVER1',
    nonce: 'n',
  };
  it('is SHA-256 over its own domain, the purpose, subject, hash, approver and nonce, each NUL-ended', () => {
    const expected = sha256(
      new TextEncoder().encode(`rampart-stepup-v2\0confirm-not-paid\0R-1001.1\0${'ab'.repeat(32)}\0U0APPROVER1\0n\0`),
    );
    expect(stepUpChallengeV2(inputs)).toEqual(expected);
  });
  it('changes with every input, the purpose included, and never equals a v1 challenge', () => {
    const base = Buffer.from(stepUpChallengeV2(inputs)).toString('hex');
    expect(Buffer.from(stepUpChallengeV2({ ...inputs, purpose: 'approve' })).toString('hex')).not.toBe(base);
    for (const k of ['subject', 'hash', 'approverId', 'nonce'] as const)
      expect(Buffer.from(stepUpChallengeV2({ ...inputs, [k]: `${inputs[k]}x` })).toString('hex')).not.toBe(base);
    const v1 = stepUpChallenge({
      approvalId: 'R-1001.1',
      approvalHash: inputs.hash,
      approverId: 'U0APPROVER1',
      nonce: 'n',
    });
    expect(Buffer.from(v1).toString('hex')).not.toBe(base);
  });
});

describe('sealedApprovalHash', () => {
  it("is the approvalHash over the call's one sealHash, whose first 10 characters the card shows", () => {
    const full = approvalHashOfCalls([call]);
    expect(sealedApprovalHash({ call, hash: cardHash(full) })).toBe(full);
  });
  it("keeps a record sealed with its call's own hash on that hash", () => {
    expect(sealedApprovalHash({ call, hash: callHash(call) })).toBe(v1ApprovalHash({ call }));
  });
  it("survives the masking of a final record's personal data, through the SHA-256 it keeps", () => {
    const sealed = buildSealedRequest('beneficiary');
    const hash = cardHash(approvalHashOfCalls([sealed.call]));
    const full = sealedApprovalHash({ ...sealed, hash });
    const masked = redactSealed({ ...sealed, hash }, 1);
    expect(JSON.stringify(masked.call)).not.toBe(JSON.stringify(sealed.call));
    expect(sealedApprovalHash(masked)).toBe(full);
  });
  it('is undefined once the stored call changed', () => {
    const hash = cardHash(approvalHashOfCalls([call]));
    expect(sealedApprovalHash({ call: { ...call, body: { ...call.body, amount: 2 } }, hash })).toBeUndefined();
  });
});

describe('step-up settings', () => {
  const env = { NODE_ENV: 'test', STEP_UP_ABOVE: 'USDC=10000' };
  it('needs PUBLIC_URL, and an https one in production', () => {
    expect(() => loadConfig(env)).toThrow('PUBLIC_URL is required when STEP_UP_ABOVE');
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        STEP_UP_ABOVE: 'USDC=10000',
        PUBLIC_URL: 'http://rampart.internal',
      }),
    ).toThrow('PUBLIC_URL must be an https:// URL in production');
  });
  it('defaults the RP ID to PUBLIC_URL’s host and the cool-down to 24 h', () => {
    const c = loadConfig({ ...env, PUBLIC_URL: 'https://rampart.example.com/pages/' });
    expect(c.stepUp).toMatchObject({
      publicUrl: 'https://rampart.example.com/pages',
      rpId: 'rampart.example.com',
      cooldownMs: 86_400_000,
      newDestination: false,
    });
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'https://a.example.com', PASSKEY_RP_ID: 'other.com' })).toThrow(
      'PASSKEY_RP_ID',
    );
  });
  it('reads TRUST_PROXY as addresses and CIDR ranges, and names a bad entry in one sentence', () => {
    const base = { ...env, PUBLIC_URL: 'https://rampart.example.com' };
    expect(loadConfig(base).stepUp.trustProxy).toEqual([]);
    expect(loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.5, 10.0.0.0/8,fd00::/8 ' }).stepUp.trustProxy).toEqual([
      '10.0.0.5',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.5,proxy.internal' })).toThrow(
      'TRUST_PROXY must be addresses or CIDR ranges',
    );
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/33' })).toThrow('TRUST_PROXY');
  });
});

describe('votePurpose', () => {
  it('signs an address-book addition as `entry`, so it never verifies as a payment vote', () => {
    expect(votePurpose('address-book')).toBe('entry');
    for (const kind of ['transfer', 'offramp', 'beneficiary', 'register-beneficiary'])
      expect(votePurpose(kind)).toBe('approve');
    const c = { subject: 'R-1043', hash: 'ab'.repeat(32), approverId: 'U0A', nonce: 'n' };
    expect(stepUpChallengeV2({ ...c, purpose: 'entry' })).not.toEqual(stepUpChallengeV2({ ...c, purpose: 'approve' }));
  });

  it('signs a series as `series`, so a vote on recurring payouts never verifies as one payment’s', () => {
    expect(votePurpose('transfer', 'series')).toBe('series');
    expect(votePurpose('transfer', 'single')).toBe('approve');
    const c = { subject: 'S-1', hash: 'ab'.repeat(32), approverId: 'U0A', nonce: 'n' };
    expect(stepUpChallengeV2({ ...c, purpose: 'series' })).not.toEqual(stepUpChallengeV2({ ...c, purpose: 'approve' }));
  });
});
