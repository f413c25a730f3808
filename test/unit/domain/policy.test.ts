import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../../src/domain/amount.js';
import { evaluatePolicy } from '../../../src/domain/policy.js';

const usdc = (s: string) => parseAmount(s, 6);

describe('approval policy', () => {
  it('needs one approval by default', () => {
    expect(
      evaluatePolicy(
        { approvalsRequired: 1, twoApprovalsAbove: undefined },
        { kind: 'transfer', assetCode: 'USDC', amount: usdc('1000000') },
      ),
    ).toMatchObject({ ok: true, required: 1 });
  });

  it('needs two approvals above the threshold for the asset code, and names the rule', () => {
    const settings = { approvalsRequired: 1, twoApprovalsAbove: { USDC: '10000' } };
    expect(evaluatePolicy(settings, { kind: 'transfer', assetCode: 'USDC', amount: usdc('10000') })).toMatchObject({
      ok: true,
      required: 1,
    });
    expect(evaluatePolicy(settings, { kind: 'transfer', assetCode: 'USDC', amount: usdc('10000.000001') })).toEqual({
      ok: true,
      required: 2,
      rule: '2 approvals: amount over 10,000 USDC',
    });
  });

  it('applies a bare number to every asset code', () => {
    const settings = { approvalsRequired: 1, twoApprovalsAbove: { '*': '500' } };
    expect(evaluatePolicy(settings, { kind: 'offramp', assetCode: 'cNGN', amount: usdc('501') })).toMatchObject({
      ok: true,
      required: 2,
    });
  });

  it('refuses (default-deny) an asset the thresholds do not cover', () => {
    const settings = { approvalsRequired: 1, twoApprovalsAbove: { USDC: '10000' } };
    const d = evaluatePolicy(settings, { kind: 'transfer', assetCode: 'USDT', amount: usdc('1') });
    expect(d.ok).toBe(false);
  });

  it('refuses an amount that is not fixed, with or without thresholds ("entire balance" is sealed first)', () => {
    const settings = { approvalsRequired: 1, twoApprovalsAbove: { USDC: '10000' } };
    expect(evaluatePolicy(settings, { kind: 'transfer', assetCode: 'USDC' })).toMatchObject({ ok: false });
    expect(
      evaluatePolicy({ approvalsRequired: 1, twoApprovalsAbove: undefined }, { kind: 'offramp', assetCode: 'USDC' }),
    ).toMatchObject({
      ok: false,
      reason: 'the amount is not fixed; request an exact amount',
    });
  });

  it('never asks for fewer approvals than the base setting', () => {
    const settings = { approvalsRequired: 3, twoApprovalsAbove: { USDC: '10' } };
    expect(evaluatePolicy(settings, { kind: 'transfer', assetCode: 'USDC', amount: usdc('11') })).toMatchObject({
      required: 3,
    });
  });

  it('reads a threshold of 0 as two approvals for every amount (README "Configuration")', () => {
    const settings = { approvalsRequired: 1, twoApprovalsAbove: { '*': '0' } };
    expect(evaluatePolicy(settings, { kind: 'transfer', assetCode: 'USDC', amount: usdc('0.000001') })).toEqual({
      ok: true,
      required: 2,
      rule: '2 approvals: every USDC amount (threshold 0)',
    });
  });

  it('refuses, never throws, on a threshold finer than the asset (start-up refuses it first)', () => {
    const settings = { approvalsRequired: 1, twoApprovalsAbove: { USDC: '10.1234567' } };
    expect(evaluatePolicy(settings, { kind: 'transfer', assetCode: 'USDC', amount: usdc('5') })).toMatchObject({
      ok: false,
    });
  });
});
