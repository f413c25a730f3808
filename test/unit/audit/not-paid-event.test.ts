/** A not-paid proposal is an audit webhook event of its own, in state unknown, with who and why. */
import { describe, expect, it } from 'vitest';
import { type AuditEventBody, eventBody, stateOf } from '../../../src/audit/webhook.js';
import { buildRecord } from '../../support/factories.js';

describe('the audit webhook', () => {
  it('sends a not-paid proposal as an event in state unknown, naming the proposer and the reason', () => {
    const entry = {
      at: Date.UTC(2026, 10, 21, 14, 5),
      event: 'not-paid-proposed',
      by: 'U0APPROVER1',
      detail: 'proposed not paid (P-1a2b3c4d), waiting for a second approver: no incoming transfer',
    };
    expect(stateOf(entry)).toBe('unknown');
    const body = JSON.parse(eventBody(buildRecord('unknown'), entry, 4, 'unknown')) as AuditEventBody;
    expect(body).toMatchObject({
      event: 'not-paid-proposed',
      state: 'unknown',
      by: 'U0APPROVER1',
      event_id: 'R-1001:4',
    });
    expect(body.detail).toContain('no incoming transfer');
  });
});
