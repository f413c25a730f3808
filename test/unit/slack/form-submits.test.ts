/**
 * The forms' submit listeners, called as functions with the form as opened and what the person
 * typed (as Bolt's starter app tests its listeners): a wrong input or a refusal is one sentence on
 * the field it concerns, in the ack, and the form stays open; a success closes or updates it.
 */
import { describe, expect, it } from 'vitest';
import { identityModal } from '../../../src/adapters/slack/blocks/identity.js';
import { recordOutcomeModal } from '../../../src/adapters/slack/blocks/outcome-modal.js';
import { requestModal } from '../../../src/adapters/slack/blocks/request-modal.js';
import { NOTHING_SUBMITTED } from '../../../src/adapters/slack/blocks/submitted.js';
import { denyModal, denySubmit } from '../../../src/adapters/slack/views/deny.js';
import { identitySubmit } from '../../../src/adapters/slack/views/identity.js';
import { recordOutcomeSubmit } from '../../../src/adapters/slack/views/record-outcome.js';
import { requestSubmit } from '../../../src/adapters/slack/views/request.js';
import { DeadlineError } from '../../../src/app/deadline.js';
import { buildOutcomeFacts } from '../../support/factories.js';
import { byKind, listenerDeps, runView } from '../../support/slack-listener.js';

/** Deps whose façade member `path` (e.g. approvals.deny) answers `outcome`, recording its arguments. */
function answering(capability: string, member: string, outcome: unknown, more: Record<string, unknown> = {}) {
  const seen: unknown[][] = [];
  const use = async (...args: unknown[]) => {
    seen.push(args);
    return outcome;
  };
  return { ...listenerDeps({ app: { [capability]: { [member]: use, ...more } } }), seen };
}

describe('the deny form', () => {
  const form = denyModal('R-7', 'C0GENERAL');
  const denying = (outcome: unknown) => answering('approvals', 'deny', outcome);

  it('denies with the reason as typed, trimmed, and closes', async () => {
    const { deps, seen } = denying({ kind: 'denied' });
    const heard = await runView(denySubmit(deps), form, { reason: '  not this month  ' });
    expect(heard.acks).toEqual([undefined]);
    expect(seen).toMatchObject([['R-7', { user: 'U0APPROVER1' }, 'not this month']]);
  });

  it.each(
    byKind([
      [{ kind: 'not-approver' }, 'You are not an approver for this, so nothing changed.'],
      [
        { kind: 'approver-check-failed', error: undefined },
        'Rampart could not check the approvers’ user group with Slack just now, so nothing changed; try again in a minute.',
      ],
      [{ kind: 'late', requestId: 'R-7', state: 'approved' }, 'R-7 is already approved; nothing changed.'],
    ]),
  )('$kind is said on the reason, and the form stays open', async ({ outcome, said }) => {
    const heard = await runView(denySubmit(denying(outcome).deps), form, { reason: 'not this month' });
    expect(heard.errors()).toEqual({ reason: said });
  });

  it('asks for a reason before asking the store', async () => {
    const heard = await runView(denySubmit(listenerDeps().deps), form, { reason: ' no ' });
    expect(heard.errors()).toEqual({ reason: 'Give a reason; the requester sees it in the thread.' });
  });

  it('refuses a form whose metadata it cannot read', async () => {
    const heard = await runView(
      denySubmit(listenerDeps().deps),
      { ...form, private_metadata: '{"requestId":"x"}' },
      {
        reason: 'not this month',
      },
    );
    expect(heard.errors()).toEqual({
      reason: 'This form is from an older version of Rampart; click Deny on the card again.',
    });
  });
});

describe('the Record outcome form', () => {
  const form = recordOutcomeModal(buildOutcomeFacts(), 'C0APPROVALS', '{"executionId":"R-1001.1"}');
  const resolving = (outcome: unknown) => answering('executions', 'resolve', outcome);

  it('records paid with its proof, and shows what was recorded', async () => {
    const { deps, seen } = resolving({ kind: 'paid', executionId: 'R-1001.1', record: undefined });
    const heard = await runView(recordOutcomeSubmit(deps), form, { verdict: 'paid', proof: ' 0xabc ' });
    expect(seen).toMatchObject([[{ user: 'U0APPROVER1' }, { id: 'R-1001.1', paid: true, note: '0xabc' }]]);
    expect(heard.acks).toMatchObject([{ response_action: 'update' }]);
    expect(JSON.stringify(heard.acks[0])).toContain('R-1001.1 is recorded as paid (succeeded)');
  });

  it.each([
    [{}, { verdict: 'Choose paid or not paid.' }],
    [
      { verdict: 'paid' },
      { proof: 'Give the proof that R-1001.1 was paid (the transaction hash or payout reference).' },
    ],
  ])('a form missing %o says which field to fill', async (inputs, errors) => {
    const heard = await runView(recordOutcomeSubmit(listenerDeps().deps), form, inputs);
    expect(heard.errors()).toEqual(errors);
  });

  it('says a refused proof on the proof, and any other refusal on the verdict', async () => {
    const badProof = { kind: 'bad-proof', executionId: 'R-1001.1', problem: 'That is not a transaction hash.' };
    const proof = await runView(recordOutcomeSubmit(resolving(badProof).deps), form, { verdict: 'paid', proof: 'x' });
    expect(proof.errors()).toEqual({ proof: 'That is not a transaction hash.' });
    const self = { kind: 'self', executionId: 'R-1001.1' };
    const verdict = await runView(recordOutcomeSubmit(resolving(self).deps), form, { verdict: 'paid', proof: '0xab' });
    expect(verdict.errors()).toEqual({
      verdict: 'You requested R-1001.1, so another approver must resolve it; nothing changed.',
    });
  });

  it('refuses a form whose metadata it cannot read', async () => {
    const heard = await runView(recordOutcomeSubmit(listenerDeps().deps), { ...form, private_metadata: '' }, {});
    expect(heard.errors()).toEqual({
      verdict: 'This form is from an older version of Rampart; open it again from the card.',
    });
  });
});

describe('the new identity form', () => {
  const form = identityModal({ channel: 'C0GENERAL' });
  const typed = { name: 'Ada Obi', bvn: '22212345678', dob: '1990-01-31' };

  it('shows "Creating…" in the ack, then the result in place', async () => {
    const body = { name: 'Ada Obi' };
    const created = { kind: 'created', id: 'idn_1', name: 'Ada Obi', bvnMasked: '222•••••678' };
    const { deps, seen } = answering(
      'registry',
      'checkNewIdentity',
      { kind: 'ready', body },
      {
        createIdentity: async () => created,
      },
    );
    const heard = await runView(identitySubmit(deps), form, typed);
    expect(seen).toEqual([[typed, 'U0APPROVER1']]);
    expect(JSON.stringify(heard.acks)).toContain('Creating the identity');
    expect(heard.calls).toMatchObject([{ method: 'views.update', args: { view_id: 'V0FORM' } }]);
    expect(JSON.stringify(heard.calls[0]?.args)).toContain('Identity created for *Ada Obi*');
  });

  it.each(
    byKind([
      [{ kind: 'not-allowed' }, 'Only approvers may create identities; ask one of them.'],
      [
        { kind: 'check-failed' },
        'Rampart could not check the identity creators’ user group with Slack just now, so nothing was created; try again in a minute.',
      ],
    ]),
  )('$kind is said on the name, and nothing is created', async ({ outcome, said }) => {
    const heard = await runView(identitySubmit(answering('registry', 'checkNewIdentity', outcome).deps), form, typed);
    expect(heard.errors()).toEqual({ name: said });
    expect(heard.calls).toEqual([]);
  });

  it('says each invalid field on that field', async () => {
    const errors = { bvn: 'A BVN has 11 digits.' };
    const heard = await runView(
      identitySubmit(answering('registry', 'checkNewIdentity', { kind: 'invalid', errors }).deps),
      form,
      typed,
    );
    expect(heard.errors()).toEqual(errors);
  });
});

describe('the transfer form', () => {
  const prefill = {};
  const form = requestModal(
    { kind: 'transfer', channel: 'C0GENERAL', prefill },
    [{ alias: 'ops', id: 'wal_1' }],
    prefill,
  );
  const typed = {
    asset: 'base:usdc',
    amount: '250',
    receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
    reason: 'vendor invoice',
  };
  const submitting = (outcome: unknown, more: Record<string, unknown> = {}) =>
    answering('payments', 'submit', outcome, more);

  it('hands the form to the use case as typed, from the channel it was opened in', async () => {
    const { deps, seen } = submitting({ kind: 'nothing' });
    await runView(requestSubmit(deps, 'transfer'), form, { ...typed, when: 'now' });
    expect(seen[0]?.[1]).toEqual({
      input: {
        kind: 'transfer',
        wallet: 'ops',
        asset: 'base:usdc',
        amount: '250',
        entireBalance: false,
        receiver: typed.receiver,
        beneficiary: undefined,
        reason: 'vendor invoice',
      },
      origin: 'C0GENERAL',
      submission: 'V0FORM',
    });
  });

  it('announces a submitted request only after clearing the form', async () => {
    const order: string[] = [];
    const { deps } = submitting(
      { kind: 'submitted', sealed: { id: 'R-9' } },
      {
        ackThenAnnounce: async (ack: () => Promise<void>, sealed: { id: string }) => {
          await ack();
          order.push(`announce ${sealed.id}`);
        },
      },
    );
    const heard = await runView(requestSubmit(deps, 'transfer'), form, typed);
    expect(heard.acks).toEqual([{ response_action: 'clear' }]);
    expect(order).toEqual(['announce R-9']);
  });

  it.each([
    ['the store did not answer', { kind: 'nothing' }, { reason: NOTHING_SUBMITTED }],
    [
      'the balance check ran out of time',
      { kind: 'unchecked', error: new DeadlineError('late') },
      {
        wallet: 'The wallet service is slow to answer, so the balance could not be checked; submit again in a moment.',
      },
    ],
    ['an amount is wrong', { kind: 'invalid', errors: { amount: 'Give an amount.' } }, { amount: 'Give an amount.' }],
  ])('%s: said on its field, the form stays open', async (_why, outcome, errors) => {
    const heard = await runView(requestSubmit(submitting(outcome).deps, 'transfer'), form, typed);
    expect(heard.errors()).toEqual(errors);
  });

  it('an offramp whose beneficiary is one of the picker’s hints says what the hint means', async () => {
    const offramp = requestModal(
      { kind: 'offramp', channel: 'C0GENERAL', prefill },
      [{ alias: 'ops', id: 'wal_1' }],
      prefill,
    );
    const refusing = () => submitting({ kind: 'invalid', errors: { beneficiary: 'Choose a beneficiary.' } }).deps;
    const hint = await runView(requestSubmit(refusing(), 'offramp'), offramp, { beneficiary: 'note:none-yet' });
    expect(hint.errors()).toEqual({
      beneficiary:
        'That line says what to do next: use "Use an existing beneficiary id…" or "New beneficiary…" under this field.',
    });
    const chosen = await runView(requestSubmit(refusing(), 'offramp'), offramp, { beneficiary: 'ben_5f0c2a' });
    expect(chosen.errors()).toEqual({ beneficiary: 'Choose a beneficiary.' });
  });

  it('a second submit of the same form says where the first went, and never clears', async () => {
    const heard = await runView(
      requestSubmit(submitting({ kind: 'duplicate', id: 'R-9' }).deps, 'transfer'),
      form,
      typed,
    );
    expect(heard.acks).toMatchObject([{ response_action: 'update' }]);
    expect(JSON.stringify(heard.acks[0])).toContain('R-9');
  });
});
