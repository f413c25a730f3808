import { describe, expect, it } from 'vitest';
import {
  callHash,
  canMove,
  canonicalJson,
  isFinal,
  REQUEST_STATES,
  type ServiceCall,
} from '../../../src/domain/request.js';

const call: ServiceCall = {
  kind: 'transfer',
  body: { wallet_id: 'w', amount: 25, receiver: '0xabc', asset: 'base:usdc' },
};

describe('request state machine', () => {
  it('allows only the documented moves', () => {
    expect(canMove('pending', 'approved')).toBe(true);
    expect(canMove('approved', 'executing')).toBe(true);
    expect(canMove('pending', 'executing')).toBe(false);
    expect(canMove('executing', 'executing')).toBe(false);
    expect(canMove('succeeded', 'executing')).toBe(false);
    expect(canMove('unknown', 'approved')).toBe(false);
  });

  it('lets no final state move anywhere that could execute again', () => {
    for (const s of REQUEST_STATES.filter(isFinal)) {
      expect(canMove(s, 'approved')).toBe(false);
      expect(canMove(s, 'executing')).toBe(false);
    }
  });
});

describe('sealed request hash', () => {
  it('does not depend on key order', () => {
    const reordered = {
      body: { asset: 'base:usdc', receiver: '0xabc', amount: 25, wallet_id: 'w' },
      kind: 'transfer',
    } as ServiceCall;
    expect(callHash(reordered)).toBe(callHash(call));
    expect(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] })).toBe('{"a":[2,{"c":2,"d":1}],"b":1}');
  });

  it('changes when any value changes', () => {
    const other = { ...call, body: { ...call.body, amount: 25.000001 } } as ServiceCall;
    expect(callHash(other)).not.toBe(callHash(call));
  });
});
