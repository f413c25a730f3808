import { describe, expect, it } from 'vitest';
import {
  APPROVAL_STATES,
  EXECUTION_STATES,
  FINAL_APPROVAL_STATES,
  SINGLE_STATES,
  singleCounts,
  VIEW_STATES,
  viewState,
} from '../../../src/domain/approval.js';
import { callHash, canonicalJson, isFinal, type ServiceCall } from '../../../src/domain/request.js';

const call: ServiceCall = {
  kind: 'transfer',
  body: { wallet_id: 'w', amount: 25, receiver: '0xabc', asset: 'base:usdc' },
};

describe('the view of a record', () => {
  it('is final exactly when its approval is final, whatever its executions', () => {
    for (const approval of APPROVAL_STATES)
      for (const execution of EXECUTION_STATES)
        expect(isFinal(viewState(approval, singleCounts(execution))), `${approval}/${execution}`).toBe(
          FINAL_APPROVAL_STATES.has(approval),
        );
  });

  it('reads a record stored before executions existed as it was stored', () => {
    for (const state of VIEW_STATES) {
      const [approval, execution] = SINGLE_STATES[state];
      expect(viewState(approval, singleCounts(execution))).toBe(state);
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
