/**
 * The requester hears the money: the confirmation when a request is posted and the thread reply
 * at its end both say what moves and where, with the one short address form.
 */
import { describe, expect, it } from 'vitest';
import { outcomeReply } from '../../../src/adapters/slack/blocks/card-replies.js';
import { requestedText, requesterText } from '../../../src/adapters/slack/blocks/reminders.js';
import type { ViewState } from '../../../src/domain/approval.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import { buildRecord, rileyTransfer } from '../../support/factories.js';

/** R-1001 from the walk: @riley sends 25.00 USDC on Base from ops. */
function riley(state: ViewState): RequestRecord {
  return { ...buildRecord(state, 'transfer'), sealed: rileyTransfer() };
}

describe('the requester hears the money', () => {
  it('when the request is posted', () => {
    expect(requestedText(riley('pending'), 'https://slack.test/archives/C1/p1')).toBe(
      'Requested: 25.00 USDC (Base) ops → 0x99ED…EdcF (R-1001) — waiting for approval: <https://slack.test/archives/C1/p1|see the card>. You will be mentioned in its thread when it is decided.',
    );
  });

  it('when it succeeds or fails, in the thread and by direct message', () => {
    expect(outcomeReply(riley('succeeded'))).toMatch(
      /^:white_check_mark: <@U0RILEY> R-1001 succeeded: 25\.00 USDC to 0x99ED…EdcF\. Transaction </,
    );
    expect(outcomeReply(riley('failed'))).toMatch(/^:x: <@U0RILEY> R-1001 failed \(25\.00 USDC to 0x99ED…EdcF\): /);
    expect(requesterText(riley('approved'), 'https://slack.test/p', { kind: 'state' })).toContain(
      'Your R-1001, 25.00 USDC (Base) ops → 0x99ED…EdcF, was approved',
    );
  });
});
