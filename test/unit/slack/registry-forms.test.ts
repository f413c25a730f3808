/**
 * The address book, beneficiary, lookup, batch and App Home listeners, called as functions with
 * the form as opened and a fake `ack` and client (as Bolt's starter app tests its listeners): a
 * wrong input is one sentence on its field in the ack, a refusal says why, a success is announced
 * only after the form is answered.
 */
import { describe, expect, it } from 'vitest';
import { homeBalanceAction, homeRequestAction } from '../../../src/adapters/slack/actions/home.js';
import { addressModal } from '../../../src/adapters/slack/blocks/addresses.js';
import { batchAgainMetaSchema } from '../../../src/adapters/slack/blocks/batch-again.js';
import { batchModal } from '../../../src/adapters/slack/blocks/batch-modal.js';
import {
  BENEFICIARY_CALLBACK,
  confirmModal,
  crossBorderModal,
  nigerianModal,
} from '../../../src/adapters/slack/blocks/beneficiary.js';
import { IDENTITY_CALLBACK } from '../../../src/adapters/slack/blocks/identity.js';
import { REGISTER_CALLBACK, registerModal } from '../../../src/adapters/slack/blocks/register-beneficiary.js';
import { NOTHING_SUBMITTED } from '../../../src/adapters/slack/blocks/submitted.js';
import { addressesSubmit } from '../../../src/adapters/slack/views/addresses.js';
import { batchSubmit } from '../../../src/adapters/slack/views/batch.js';
import { batchAgainSubmit } from '../../../src/adapters/slack/views/batch-again.js';
import {
  confirmBeneficiarySubmit,
  newBeneficiaryAction,
  newIdentityAction,
  nigerianSubmit,
  switchVariantAction,
} from '../../../src/adapters/slack/views/beneficiary.js';
import { crossBorderSubmit } from '../../../src/adapters/slack/views/beneficiary-cross-border.js';
import { lookupModal, lookupSubmit } from '../../../src/adapters/slack/views/lookup.js';
import {
  registerExistingAction,
  registerExistingSubmit,
} from '../../../src/adapters/slack/views/register-beneficiary.js';
import { listenerDeps, runAction, runView } from '../../support/slack-listener.js';

const SEALED = { id: 'R-9' };
/** What the bank lookup found for the Nigerian form, as the confirmation shows it. */
const HOLDER = { identityName: 'Ada Obi', bankName: 'GTBank', accountMasked: '******6789', holderName: 'ADA OBI' };

/** Deps whose `capability.member` answers `outcome` and whose announcement acks first, recording both. */
function submitting(capability: string, member: string, outcome: unknown, more: Record<string, unknown> = {}) {
  const seen: unknown[][] = [];
  const announced: string[] = [];
  const use = async (...args: unknown[]) => {
    seen.push(args);
    return outcome;
  };
  const payments = {
    ackThenAnnounce: async (ack: () => Promise<void>, sealed: { id: string }) => {
      await ack();
      announced.push(sealed.id);
    },
  };
  const { deps } = listenerDeps({ app: { [capability]: { [member]: use, ...more }, payments } });
  return { deps, seen, announced };
}

/** The text a modal answer shows (its blocks, flattened). */
const shown = (answer: unknown): string => JSON.stringify(answer);

describe('the address book form', () => {
  const form = addressModal({ channel: 'C0GENERAL' });
  const typed = { name: 'Acme payroll', address: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF', reason: 'new vendor' };

  it('asks why before anything else', async () => {
    const heard = await runView(addressesSubmit(listenerDeps().deps), form, { ...typed, reason: 'x' });
    expect(heard.errors()).toEqual({ reason: 'Say why this address is needed; approvers see it.' });
  });

  it('submits the entry for every wallet when none is named, and announces it after the ack', async () => {
    const { deps, seen, announced } = submitting('destinations', 'submit', { kind: 'created', sealed: SEALED });
    const heard = await runView(addressesSubmit(deps), form, typed);
    expect(seen[0]?.[0]).toMatchObject({
      entries: [{ name: 'Acme payroll', address: typed.address, wallets: '*' }],
      reason: 'new vendor',
      origin: 'C0GENERAL',
    });
    expect(shown(heard.acks[0])).toContain('*R-9* is waiting for approval in <#C0APPROVALS>');
    expect(announced).toEqual(['R-9']);
  });

  it.each([
    [
      'wallets',
      '"treasury2" is not a configured wallet; name wallets by id or alias, or leave wallets empty for all.',
      'wallets',
    ],
    ['name', 'The entry needs a name, such as "Acme payroll wallet".', 'name'],
    ['chain', '"tron" is not a chain Rampart knows; use one of base, ethereum.', 'chain'],
    // Its words name a wallet and a name, yet it is about the address: the field says so, not the words.
    [
      'address',
      `${typed.address} on base is already in the address book as "Acme payroll wallet"; remove it first to change it.`,
      'address',
    ],
    ['entries', 'There is no entry to add.', 'reason'],
  ])('a problem about the %s is said on its block, whatever its words', async (field, message, block) => {
    const invalid = { kind: 'invalid', problems: [{ index: 0, field, message }] };
    const heard = await runView(addressesSubmit(submitting('destinations', 'submit', invalid).deps), form, typed);
    expect(heard.errors()).toEqual({ [block]: message });
  });

  it('says two problems on their own blocks', async () => {
    const invalid = {
      kind: 'invalid',
      problems: [
        { index: 0, field: 'name', message: 'The name is 61 characters; keep it to 60.' },
        { index: 0, field: 'wallets', message: '"x" is not a configured wallet.' },
      ],
    };
    const heard = await runView(addressesSubmit(submitting('destinations', 'submit', invalid).deps), form, typed);
    expect(heard.errors()).toEqual({
      name: 'The name is 61 characters; keep it to 60.',
      wallets: '"x" is not a configured wallet.',
    });
  });

  it('says on the reason why a checked form was not submitted', async () => {
    const heard = await runView(
      addressesSubmit(submitting('destinations', 'submit', { kind: 'nothing' }).deps),
      form,
      typed,
    );
    expect(heard.errors()).toEqual({ reason: NOTHING_SUBMITTED });
  });
});

describe('the Nigerian beneficiary form', () => {
  const form = nigerianModal({ channel: 'C0GENERAL' });
  const typed = { identity: 'idn_1', bank_code: '058', account_number: '0123456789', reason: 'payroll' };
  const lookingUp = (outcome: unknown) => submitting('registry', 'lookupNigerian', outcome);

  it('shows the holder’s name to confirm, in place', async () => {
    const found = { kind: 'confirm', token: 't1', ...HOLDER };
    const { deps, seen } = lookingUp(found);
    const heard = await runView(nigerianSubmit(deps), form, typed);
    expect(seen[0]?.[0]).toMatchObject({ identity: 'idn_1', bankCode: '058', channel: 'C0GENERAL' });
    expect(heard.acks).toMatchObject([{ response_action: 'update' }]);
    expect(shown(heard.acks[0])).toContain('*ADA OBI*');
  });

  it.each([
    [{ kind: 'not-found', last4: '6789', bankCode: '058' }, 'No account ending 6789 at bank 058; check both numbers.'],
    [{ kind: 'slow' }, 'The bank lookup is slow right now; submit again in a moment.'],
  ])('%o is said on the account number', async (outcome, said) => {
    const heard = await runView(nigerianSubmit(lookingUp(outcome).deps), form, typed);
    expect(heard.errors()).toEqual({ account_number: said });
  });

  it('says a search hint chosen as the identity is a hint', async () => {
    const invalid = { kind: 'invalid', errors: {}, identity: 'missing' };
    const heard = await runView(nigerianSubmit(lookingUp(invalid).deps), form, { ...typed, identity: 'note:search' });
    expect(heard.errors()).toEqual({
      identity: 'That line explains the search; choose an identity, or type its id to check it with the service.',
    });
  });

  it('the confirmation submits, announces after the ack, and forgets the draft', async () => {
    const forgotten: string[] = [];
    const { deps, announced } = submitting(
      'registry',
      'confirmNigerian',
      { kind: 'submitted', sealed: SEALED },
      { forgetBeneficiaryDraft: async (token: string) => forgotten.push(token) },
    );
    const confirm = confirmModal('t1', HOLDER);
    await runView(confirmBeneficiarySubmit(deps), confirm, {});
    expect(announced).toEqual(['R-9']);
    expect(forgotten).toEqual(['t1']);
  });

  it('the confirmation of an expired form says to start again', async () => {
    const confirm = confirmModal('t1', HOLDER);
    const heard = await runView(
      confirmBeneficiarySubmit(submitting('registry', 'confirmNigerian', { kind: 'expired' }).deps),
      confirm,
      {},
    );
    expect(shown(heard.acks[0])).toContain('This form has expired; start again with /beneficiary new.');
  });

  it.each([
    ['New beneficiary…', newBeneficiaryAction, BENEFICIARY_CALLBACK.ng],
    ['New identity…', newIdentityAction, IDENTITY_CALLBACK],
    ['Use an existing beneficiary id…', registerExistingAction, REGISTER_CALLBACK],
  ])('%s pushes its form over the one it sits in', async (_button, action, callback) => {
    const heard = await runAction(action(listenerDeps().deps), {
      view: { private_metadata: '{"channel":"C0GENERAL"}' },
    });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.calls).toMatchObject([
      { method: 'views.push', args: { trigger_id: 'T0TRIGGER', view: { callback_id: callback } } },
    ]);
  });

  it('the switch swaps the Nigerian form for the cross-border one in place', async () => {
    const view = { id: 'V0NG', hash: 'h1', callback_id: form.callback_id, private_metadata: '{}' };
    const switched = await runAction(switchVariantAction(listenerDeps().deps), { view });
    expect(switched.calls).toMatchObject([
      {
        method: 'views.update',
        args: { view_id: 'V0NG', hash: 'h1', view: { callback_id: crossBorderModal({}).callback_id } },
      },
    ]);
  });
});

describe('the cross-border and existing beneficiary forms', () => {
  it('a cross-border form refused by the use case says why on the reason', async () => {
    const { deps } = submitting('registry', 'submitCrossBorder', { kind: 'duplicate', id: 'R-8' });
    const heard = await runView(crossBorderSubmit(deps), crossBorderModal({ channel: 'C0GENERAL' }), {
      reason: 'payroll',
    });
    expect(heard.errors()).toEqual({
      reason: 'This form was already sent for approval as R-8; look for it in the approvals channel.',
    });
  });

  it('an existing beneficiary needs an identity and a reason, said together', async () => {
    const heard = await runView(registerExistingSubmit(listenerDeps().deps), registerModal({}), { reason: 'x' });
    expect(heard.errors()).toEqual({
      identity: expect.any(String),
      reason: 'Say why this payout destination is needed; approvers see it.',
    });
  });

  it('an existing beneficiary’s problems are said on their fields; a created one is announced', async () => {
    const invalid = { kind: 'invalid', problems: [{ field: 'account_last4', message: 'Give the last four digits.' }] };
    const typed = { identity: 'idn_1', reason: 'payroll' };
    const refused = await runView(
      registerExistingSubmit(submitting('registry', 'submitRegistration', invalid).deps),
      registerModal({}),
      typed,
    );
    expect(refused.errors()).toEqual({ account_last4: 'Give the last four digits.' });
    const created = submitting('registry', 'submitRegistration', { kind: 'created', sealed: SEALED });
    await runView(registerExistingSubmit(created.deps), registerModal({}), typed);
    expect(created.announced).toEqual(['R-9']);
  });
});

describe('the lookup form', () => {
  it('says a wrong bank code or account number on its field, without asking the service', async () => {
    const heard = await runView(lookupSubmit(listenerDeps().deps), lookupModal(), {
      bank_code: '5',
      account_number: '12',
    });
    expect(Object.keys(heard.errors()).sort()).toEqual(['account_number', 'bank_code']);
  });

  it('says an account the service does not know on the account number', async () => {
    const { deps } = listenerDeps({
      app: {
        reads: {
          lookup: async () => ({ kind: 'no-account', account: { bankCode: '058', accountNumber: '0123456789' } }),
        },
      },
    });
    const heard = await runView(lookupSubmit(deps), lookupModal(), { bank_code: '058', account_number: '0123456789' });
    expect(heard.errors().account_number).toMatch(
      /^No account .*6789 at bank 058; check both numbers with the account holder\.$/,
    );
  });
});

describe('the batch forms', () => {
  const wallets = listenerDeps().deps.config.wallets;

  it('names every missing choice at once, on its field', async () => {
    const heard = await runView(
      batchSubmit(listenerDeps().deps),
      batchModal({ channel: 'C0GENERAL' }, wallets, {}),
      {},
    );
    expect(heard.errors()).toMatchObject({
      kind: 'Choose transfers or offramps.',
      file: 'Attach the CSV file; `/batch template` shows its columns.',
    });
  });

  it('Request again: a form it cannot read says so in place; one already used names the batch it became', async () => {
    const form = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'x' }, blocks: [] };
    const unread = await runView(batchAgainSubmit(listenerDeps().deps), { ...form, private_metadata: '{}' });
    expect(unread.acks).toMatchObject([{ response_action: 'update' }]);
    const meta = JSON.stringify(batchAgainMetaSchema.parse({ id: 'B-3', channel: 'C0GENERAL' }));
    const { deps } = listenerDeps({ app: { batches: { submitAgain: async () => ({ kind: 'taken', id: 'B-4' }) } } });
    const taken = await runView(batchAgainSubmit(deps), { ...form, private_metadata: meta });
    expect(taken.calls).toMatchObject([{ method: 'views.update', args: { view_id: 'V0FORM' } }]);
    expect(shown(taken.calls[0]?.args)).toContain('This form already became B-4.');
  });
});

describe('App Home’s buttons', () => {
  it('Transfer opens the form, answering in the App Home’s conversation', async () => {
    const { deps } = listenerDeps({ app: { reads: { walletChoices: async () => [] } } });
    const heard = await runAction(homeRequestAction(deps, 'transfer'), {
      channel: null,
      view: { private_metadata: 'D0HOME' },
    });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.calls[0]).toMatchObject({ method: 'views.open', args: { trigger_id: 'T0TRIGGER' } });
    expect(shown(heard.calls[0]?.args)).toContain('D0HOME');
  });

  it('Balances opens at once, then shows what could be read, or why not', async () => {
    const { deps } = listenerDeps({
      app: {
        reads: {
          balances: async () => {
            throw new Error('connection reset');
          },
        },
      },
    });
    const heard = await runAction(homeBalanceAction(deps), { channel: null });
    expect(heard.calls.map((c) => c.method)).toEqual(['views.open', 'views.update']);
    expect(shown(heard.calls[0]?.args)).toContain('Reading balances…');
  });
});
