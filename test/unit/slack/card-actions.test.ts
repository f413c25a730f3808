/**
 * The buttons on a request's card, called as functions with a fake `ack` and client (as Bolt's
 * starter app tests its listeners): Approve, Deny, Cancel, the passkey link, Cancel while waiting,
 * Record outcome… and Confirm not paid. Each acks first, hands the click to the façade, and
 * answers privately with one sentence per outcome; a click that carries no valid id does nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  approveAction,
  cancelAction,
  denyAction,
  stepUpLinkAction,
} from '../../../src/adapters/slack/actions/approval.js';
import { cancelWaitingAction } from '../../../src/adapters/slack/actions/cancel-waiting.js';
import { confirmNotPaidAction, recordOutcomeAction } from '../../../src/adapters/slack/actions/outcome.js';
import { RECORD_OUTCOME_CALLBACK } from '../../../src/adapters/slack/blocks/outcome-modal.js';
import { DENY_CALLBACK } from '../../../src/adapters/slack/views/deny.js';
import { REDIS_NO_ANSWER_TEXT, REDIS_UNREACHABLE_TEXT } from '../../../src/store/redis-errors.js';
import { buildOutcomeFacts } from '../../support/factories.js';
import { byKind, listenerDeps, runAction, slackRefuses } from '../../support/slack-listener.js';

const NOT_APPROVER = 'You are not an approver for this, so nothing changed.';
const CHECK_FAILED =
  'Rampart could not check the approvers’ user group with Slack just now, so nothing changed; try again in a minute.';
const decided = { requestId: 'R-7', state: 'denied', decidedBy: 'U0APPROVER2', decidedAt: undefined, expiresAt: 0 };

/** Deps whose `approvals` member answers `outcome` to whichever use case the listener calls, recording the calls. */
function approvals(outcome: unknown) {
  const seen: unknown[][] = [];
  const answer = async (...args: unknown[]) => {
    seen.push(args);
    return outcome;
  };
  const members = { approve: answer, checkDeny: answer, cancel: answer, cancelWaiting: answer };
  const passkeys = {
    offerStepUp: async () => ({ kind: 'link', url: 'https://rampart.example.com/p/1', expiresAt: 0 }),
  };
  return { ...listenerDeps({ app: { approvals: members, passkeys } }), seen };
}

describe('Approve', () => {
  it.each(
    byKind([
      [{ kind: 'not-approver' }, NOT_APPROVER],
      [{ kind: 'approver-check-failed', error: new Error('ratelimited') }, CHECK_FAILED],
      [{ kind: 'self', requestId: 'R-7' }, 'You requested R-7, so you cannot approve it; another approver must.'],
      [
        { kind: 'duplicate', requestId: 'R-7', remaining: 1 },
        'You have already approved R-7; it needs 1 more approval(s) from someone else.',
      ],
      [{ kind: 'late', decided }, 'R-7 was already denied by <@U0APPROVER2>.'],
      [
        { kind: 'frozen', requestId: 'R-7', freeze: undefined },
        'Rampart is frozen, so R-7 cannot be approved now; nothing changed. It can be approved once an unfreeze is approved with /unfreeze.',
      ],
      [
        { kind: 'over_limit', requestId: 'R-7', message: 'Today’s USDC limit has 100 left.' },
        'R-7 stays pending and your approval was not counted. Today’s USDC limit has 100 left. Approve again when headroom returns, or deny it.',
      ],
      [{ kind: 'unavailable', failure: 'unreachable' }, REDIS_UNREACHABLE_TEXT],
      [{ kind: 'unavailable', failure: 'no_answer' }, REDIS_NO_ANSWER_TEXT],
      [{ kind: 'step-up', requestId: 'R-7' }, 'R-7 needs your passkey: open the link to approve it.'],
    ]),
  )('$kind is answered privately, after a bare ack', async ({ outcome, said: sentence }) => {
    const { deps } = approvals(outcome);
    const heard = await runAction(approveAction(deps), { value: 'R-7' });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.said()).toEqual([sentence]);
    expect(heard.calls[0]?.args).toMatchObject({ channel: 'C0APPROVALS', user: 'U0APPROVER1' });
  });

  it.each([{ kind: 'voted', requestId: 'R-7' }, { kind: 'approved', requestId: 'R-7' }, { kind: 'missing' }])(
    '$kind says nothing privately: the card shows the vote',
    async (outcome) => {
      const heard = await runAction(approveAction(approvals(outcome).deps), { value: 'R-7' });
      expect(heard.acks).toEqual([undefined]);
      expect(heard.calls).toEqual([]);
    },
  );

  it('passes on that the card’s warnings were checked, and only an approval id', async () => {
    const { deps, seen } = approvals({ kind: 'voted', requestId: 'R-7' });
    await runAction(approveAction(deps), { value: 'R-7 warnings-checked' });
    await runAction(approveAction(deps), { value: 'R-7' });
    await runAction(approveAction(deps), { value: 'transfer 100 to 0xabc' });
    expect(seen.map(([id, , checked]) => [id, checked])).toEqual([
      ['R-7', true],
      ['R-7', false],
    ]);
  });

  it('answers in the approvals channel when the click came from no channel', async () => {
    const heard = await runAction(approveAction(approvals({ kind: 'not-approver' }).deps), {
      value: 'R-7',
      channel: null,
    });
    expect(heard.calls[0]?.args).toMatchObject({ channel: 'C0APPROVALS', text: NOT_APPROVER });
  });
});

describe('Deny', () => {
  it('opens the reason form for an approver while the request is pending', async () => {
    const heard = await runAction(denyAction(approvals({ kind: 'may-deny' }).deps), { value: 'R-7' });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.calls).toMatchObject([
      { method: 'views.open', args: { trigger_id: 'T0TRIGGER', view: { callback_id: DENY_CALLBACK } } },
    ]);
  });

  it.each(
    byKind([
      [{ kind: 'not-approver' }, NOT_APPROVER],
      [{ kind: 'approver-check-failed', error: undefined }, CHECK_FAILED],
      [{ kind: 'late', decided: { ...decided, state: 'cancelled' } }, 'R-7 was cancelled by the requester.'],
      [{ kind: 'unavailable', failure: 'unreachable' }, REDIS_UNREACHABLE_TEXT],
    ]),
  )('$kind opens no form and says why', async ({ outcome, said: sentence }) => {
    const heard = await runAction(denyAction(approvals(outcome).deps), { value: 'R-7' });
    expect(heard.said()).toEqual([sentence]);
    expect(heard.calls.map((c) => c.method)).toEqual(['chat.postEphemeral']);
  });
});

describe('a Slack call that fails is logged, and the click still acked', () => {
  it.each([
    [
      'Approve’s private answer',
      approveAction,
      { kind: 'not-approver' },
      'chat.postEphemeral',
      'could not send a private reply',
    ],
    ['Deny’s form', denyAction, { kind: 'may-deny' }, 'views.open', 'could not open the deny modal'],
  ])('%s', async (_what, action, outcome, method, logged) => {
    const { deps, logs } = approvals(outcome);
    const heard = await runAction(action(deps), { value: 'R-7', answers: slackRefuses(method, 'channel_not_found') });
    expect(heard.acks).toEqual([undefined]);
    expect(logs.text).toContain(logged);
  });
});

describe('Cancel on the card', () => {
  it('tells anyone but the requester who can cancel, from the overflow menu', async () => {
    const outcome = { kind: 'not-requester', requestId: 'R-7', requester: 'U0REQUESTER' };
    const heard = await runAction(cancelAction(approvals(outcome).deps), { selected: 'R-7' });
    expect(heard.said()).toEqual([
      'Only the requester, <@U0REQUESTER>, can cancel R-7. Approvers can deny it instead.',
    ]);
  });

  it('says when it was decided already, and nothing when it was cancelled', async () => {
    const late = await runAction(cancelAction(approvals({ kind: 'late', decided }).deps), { selected: 'R-7' });
    expect(late.said()).toEqual(['R-7 was already denied by <@U0APPROVER2>.']);
    const done = await runAction(cancelAction(approvals({ kind: 'cancelled' }).deps), { selected: 'R-7' });
    expect(done.calls).toEqual([]);
  });
});

describe('Cancel while waiting to run', () => {
  it.each(
    byKind([
      [
        { kind: 'refused', code: 'already_started', requestId: 'R-7' },
        'R-7 already started, so it can no longer be cancelled; its card shows the outcome.',
      ],
      [
        { kind: 'approver-check-failed', error: undefined },
        'Rampart could not check the approvers’ user group with Slack just now, so nothing changed; try again in a minute.',
      ],
      [{ kind: 'cancelled', requestId: 'R-7' }, 'You cancelled R-7; nothing was sent.'],
    ]),
  )('$kind', async ({ outcome, said: sentence }) => {
    const heard = await runAction(cancelWaitingAction(approvals(outcome).deps), { value: 'R-7' });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.said()).toEqual([sentence]);
  });
});

describe('the passkey link', () => {
  it('replaces its private message, and keeps it to mark the link used', async () => {
    const kept: unknown[][] = [];
    const { deps } = listenerDeps({ app: { passkeys: { keepLinkMessage: async (...a: unknown[]) => kept.push(a) } } });
    const heard = await runAction(stepUpLinkAction(deps), { value: 'approve:R-7' });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.responds).toMatchObject([{ replace_original: true }]);
    expect(heard.said()[0]).toContain('The passkey page for R-7 was opened from this link');
    expect(kept).toMatchObject([[{ user: 'U0APPROVER1' }, 'approve', 'R-7', 'http://127.0.0.1:9/never-called']]);
  });

  it('says an expired link expired, and keeps nothing', async () => {
    const heard = await runAction(stepUpLinkAction(listenerDeps().deps), { value: 'resume:B-3:1000' });
    expect(heard.said()).toEqual([
      ':hourglass: This link for B-3 expired — click Resume on the card again for a new one. Nothing was recorded.',
    ]);
  });
});

describe('Record outcome… and Confirm not paid', () => {
  const executions = (o: Record<string, unknown>) => listenerDeps({ app: { executions: o, passkeys: {} } });

  it('Record outcome… opens the form with what Rampart holds, then refreshes it with the balances read now', async () => {
    const reads: boolean[] = [];
    const { deps } = executions({
      outcomeFacts: async (_u: string, _id: string, fresh: boolean) => {
        reads.push(fresh);
        return { ok: true, facts: buildOutcomeFacts() };
      },
    });
    const heard = await runAction(recordOutcomeAction(deps), { value: 'R-1001.1' });
    expect(reads).toEqual([false, true]);
    expect(heard.calls).toMatchObject([
      { method: 'views.open', args: { view: { callback_id: RECORD_OUTCOME_CALLBACK } } },
      { method: 'views.update', args: { view_id: 'V0FAKE' } },
    ]);
  });

  it('Record outcome… says privately why the form does not open, and ignores a value that is no execution id', async () => {
    const reads: boolean[] = [];
    const { deps } = executions({
      outcomeFacts: async (_u: string, _id: string, fresh: boolean) => {
        reads.push(fresh);
        return { ok: false, outcome: { kind: 'not-approver' } };
      },
    });
    const heard = await runAction(recordOutcomeAction(deps), { value: 'R-7.1' });
    expect(heard.said()).toEqual(['Only approvers can resolve an unknown outcome, so nothing changed.']);
    expect(reads).toEqual([false]);
    expect((await runAction(recordOutcomeAction(deps), { value: 'R-7' })).calls).toEqual([]);
    expect(reads).toEqual([false]);
  });

  it.each(
    byKind([
      [
        { kind: 'confirmed', executionId: 'R-7.1', proposal: { by: 'U0APPROVER2' }, record: undefined },
        'R-7.1 is recorded as not paid (failed), proposed by <@U0APPROVER2> and confirmed by you; its velocity amount is released.',
      ],
      [
        { kind: 'refused', executionId: 'R-7.1', why: 'proposer' },
        'You proposed not-paid for R-7.1, so a different approver must confirm it; nothing changed.',
      ],
    ]),
  )('Confirm not paid answers $kind in one sentence', async ({ outcome, said: sentence }) => {
    const heard = await runAction(confirmNotPaidAction(executions({ confirmNotPaid: async () => outcome }).deps), {
      value: 'R-7.1 P-0123abcd',
    });
    expect(heard.said()).toEqual([sentence]);
  });

  it('Confirm not paid offers the passkey page when the payment was approved with passkeys', async () => {
    const { deps } = listenerDeps({
      app: {
        executions: { confirmNotPaid: async () => ({ kind: 'refused', executionId: 'R-7.1', why: 'needs-passkey' }) },
        passkeys: { offerNotPaid: async () => ({ kind: 'late' }) },
      },
    });
    const heard = await runAction(confirmNotPaidAction(deps), { value: 'R-7.1 P-0123abcd' });
    expect(heard.said()).toEqual(['R-7.1 is no longer outcome unknown; nothing changed.']);
  });

  it('Confirm not paid says nothing changed when the store fails, and logs it', async () => {
    const { deps, logs } = executions({
      confirmNotPaid: async () => {
        throw new Error('connection reset');
      },
    });
    const heard = await runAction(confirmNotPaidAction(deps), { value: 'R-7.1 P-0123abcd' });
    expect(heard.said()).toEqual(['Rampart could not record that just now; try again in a minute. Nothing changed.']);
    expect(logs.text).toContain('Confirm not paid failed');
  });

  it('Confirm not paid ignores a value without an execution id and a proposal', async () => {
    const heard = await runAction(confirmNotPaidAction(executions({}).deps), { value: 'R-7.1' });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.calls).toEqual([]);
  });
});
