import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/config.js';
import { callHash, type SealedRequest, type ServiceCall } from '../../../src/domain/request.js';
import {
  afterSentence,
  exceededSentence,
  firstExceeded,
  headroomSentence,
  parseVelocityLimits,
  rulesFor,
  usedInWindow,
  velocitySubject,
} from '../../../src/domain/velocity.js';

const WALLETS = [
  { alias: 'ops', id: 'wal_ops' },
  { alias: 'treasury', id: 'wal_t' },
];

function parse(text: string) {
  const problems: string[] = [];
  const rules = parseVelocityLimits(text, WALLETS, parseDuration, problems);
  return { rules, problems };
}

function sealed(call: ServiceCall, extra: Partial<SealedRequest> = {}): SealedRequest {
  return {
    id: 'R-1',
    call,
    display: { walletAlias: 'ops' },
    requester: 'U1',
    reason: 'r',
    createdAt: 0,
    expiresAt: 1,
    requiredApprovals: 1,
    rule: '',
    hash: callHash(call),
    ...extra,
  };
}

/** The one rule `limits` sets, and the velocity subject of a transfer of `amount` `asset` from ops. */
type TransferAsset = Extract<ServiceCall, { kind: 'transfer' }>['body']['asset'];
function ruleAndSubject(limits: string, amount: number, asset: TransferAsset) {
  const rule = parse(limits).rules[0];
  if (!rule) throw new Error('no rule');
  const call: ServiceCall = { kind: 'transfer', body: { wallet_id: 'wal_ops', amount, receiver: '0x', asset } };
  const subject = velocitySubject(sealed(call));
  if (!subject) throw new Error('no subject');
  return { rule, subject };
}

describe('VELOCITY_LIMITS', () => {
  it('parses wallet and * rules in exact minor units, any case of the code', () => {
    const { rules, problems } = parse('ops:USDC=50000/24h, *:cngn=75000000.5/7d');
    expect(problems).toEqual([]);
    expect(rules).toMatchObject([
      { wallet: 'ops', code: 'USDC', limit: 50_000_000_000n, windowMs: 86_400_000, windowLabel: '24 h' },
      { wallet: '*', code: 'CNGN', limit: 75_000_000_500_000n, windowMs: 7 * 86_400_000, windowLabel: '7 d' },
    ]);
  });

  it('refuses an unknown wallet or asset code, a zero or malformed amount, too many decimals, a bad window', () => {
    const { rules, problems } = parse(
      'payroll:USDC=1/24h,ops:DAI=1/24h,ops:USDC=0/24h,ops:USDC=abc/24h,ops:USDC=1.1234567/24h,ops:USDT=5/soon,nonsense',
    );
    expect(rules).toEqual([]);
    expect(problems).toEqual([
      'VELOCITY_LIMITS "payroll:USDC=1/24h" names wallet "payroll", which is not in WALLETS',
      'VELOCITY_LIMITS "ops:DAI=1/24h" names asset code "DAI"; use one of USDC, USDT, CNGN',
      'VELOCITY_LIMITS "ops:USDC=0/24h": The amount must be more than zero.',
      'VELOCITY_LIMITS "ops:USDC=abc/24h": "abc" is not an amount; write a positive number such as 250 or 12.5.',
      'VELOCITY_LIMITS "ops:USDC=1.1234567/24h": This asset has 6 decimal places; 1.1234567 has 7.',
      'VELOCITY_LIMITS "ops:USDT=5/soon" has window "soon"; write it like 30m, 24h or 7d',
      'VELOCITY_LIMITS "nonsense" is not <wallet alias or *>:<ASSET CODE>=<amount>/<window>',
    ]);
  });

  it("a wallet's own rules replace the * rules for that code", () => {
    const { rules } = parse('*:USDC=10/24h,ops:USDC=20/24h,ops:USDC=50/7d');
    expect(rulesFor(rules, 'ops', 'usdc').map((r) => r.text)).toEqual(['ops:USDC=20/24h', 'ops:USDC=50/7d']);
    expect(rulesFor(rules, 'treasury', 'USDC').map((r) => r.text)).toEqual(['*:USDC=10/24h']);
    expect(rulesFor(rules, 'treasury', 'USDT')).toEqual([]);
  });
});

describe('window arithmetic and sentences', () => {
  it('counts only entries strictly inside the window ending now', () => {
    const entries = [
      { at: 1000, units: 5n },
      { at: 2000, units: 7n },
      { at: 3000, units: 11n },
    ];
    expect(usedInWindow(entries, 2000, 3000)).toBe(18n);
    expect(usedInWindow(entries, 2000, 4000)).toBe(11n);
    expect(usedInWindow(entries, 10_000, 3000)).toBe(23n);
  });

  it('writes cNGN as listed, never CNGN', () => {
    const { rule, subject } = ruleAndSubject('ops:cNGN=1000000/24h', 650000, 'bsc:cngn');
    expect(headroomSentence(subject, { rule, used: 0n })).toBe(
      'Limit for ops: 1,000,000.00 cNGN per 24 h. 1,000,000.00 left',
    );
  });

  it('names the rule, what is left and the request in one sentence', () => {
    const { rule, subject } = ruleAndSubject('ops:USDC=50000/24h', 13000, 'base:usdc');
    const usage = { rule, used: 37_600_000_000n };
    expect(headroomSentence(subject, usage)).toBe('Limit for ops: 50,000.00 USDC per 24 h. 12,400.00 left');
    // The card's note says what is left once this request counts.
    expect(afterSentence({ ...subject, units: 400_000_000n }, usage)).toBe(
      'Limit for ops: 50,000.00 USDC per 24 h. 12,400.00 left; 12,000.00 after this.',
    );
    expect(firstExceeded([usage], subject.units)).toBe(usage);
    expect(firstExceeded([usage], 12_400_000_000n)).toBeUndefined();
    expect(exceededSentence(subject, usage)).toBe(
      'This is over the limit. Limit for ops: 50,000.00 USDC per 24 h. 12,400.00 left, and this request is 13,000.00 USDC: ask for at most what is left, or wait for earlier payments to leave the 24 h window.',
    );
  });

  it('counts "entire available balance" at the available amount it was submitted against', () => {
    const call: ServiceCall = {
      kind: 'transfer',
      body: { wallet_id: 'wal_ops', amount: -1, receiver: '0x', asset: 'base:cngn' },
    };
    expect(velocitySubject(sealed(call, { availableUnits: '14000000000000' }))).toMatchObject({
      walletId: 'wal_ops',
      code: 'CNGN',
      units: 14_000_000_000_000n,
    });
    const beneficiary: ServiceCall = { kind: 'beneficiary', body: { currency: 'NGN', identity_id: 'i', details: {} } };
    expect(velocitySubject(sealed(beneficiary))).toBeUndefined();
  });
});
