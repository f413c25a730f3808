/** The add-beneficiary use cases with in-memory ports: every outcome, and what each one stores. */
import { describe, expect, it } from 'vitest';
import {
  type AddBeneficiaryDeps,
  confirmNigerianBeneficiary,
  forgetBeneficiaryDraft,
  lookupNigerianBeneficiary,
  submitCrossBorderBeneficiary,
} from '../../../src/app/add-beneficiary.js';
import type { SealedRequest } from '../../../src/domain/request.js';
import { createLogger } from '../../../src/log.js';
import { ServiceError } from '../../../src/service/errors.js';
import type { IdentityEntry } from '../../../src/store/registry.js';

const ALICE: IdentityEntry = {
  id: 'idn_alice_1',
  name: 'Alice Obi',
  type: 'bvn',
  bvnLast4: '6789',
  createdBy: 'U1',
  createdAt: 1,
};

function world(opts: { lookup?: () => Promise<{ account_name: string; bank_name: string }>; late?: boolean } = {}) {
  const identities = new Map<string, IdentityEntry>([
    [ALICE.id, ALICE],
    ['idn_gone', { ...ALICE, id: 'idn_gone', isActive: false }],
  ]);
  const drafts = new Map<string, unknown>();
  const created: SealedRequest[] = [];
  const claims = new Map<string, string>();
  const lookups: unknown[] = [];
  let next = 1000;
  const deps = {
    config: {
      policy: { approvalsRequired: 1, twoApprovalsAbove: undefined },
      requestExpiryMs: 60_000,
      maxOpenPerRequester: 20,
      stepUp: { above: undefined, newDestination: false }, // step-up off
    },
    service: {
      async lookupAccount(q: unknown) {
        lookups.push(q);
        return opts.lookup ? opts.lookup() : { account_name: 'ALICE OBI', bank_name: 'GTBank' };
      },
    },
    registry: {
      identity: async (id: string) => identities.get(id),
      saveDraft: async (token: string, value: unknown) => void drafts.set(token, value),
      loadDraft: async (token: string) => drafts.get(token),
      deleteDraft: async (token: string) => void drafts.delete(token),
    },
    store: {
      nextId: async () => `R-${++next}`,
      submittedAs: async (submission: string) => claims.get(submission),
      async create(sealed: SealedRequest, o: { submission?: string }) {
        if (opts.late) return { outcome: 'late' };
        const taken = o.submission ? claims.get(o.submission) : undefined;
        if (taken) return { outcome: 'taken', id: taken };
        if (o.submission) claims.set(o.submission, sealed.id);
        created.push(sealed);
        return { outcome: 'created', id: sealed.id };
      },
    },
    log: createLogger({ level: 'silent' }),
    now: () => 5_000,
  } as unknown as AddBeneficiaryDeps;
  return { deps, drafts, created, lookups };
}

const ng = {
  identity: ALICE.id,
  bankCode: '058',
  accountNumber: '0123456789',
  reason: 'Monthly payroll',
  requester: 'U7',
  channel: 'C1',
};

describe('lookupNigerianBeneficiary', () => {
  it('looks the account up, keeps a draft and returns the holder to confirm, masked', async () => {
    const w = world();
    const r = await lookupNigerianBeneficiary(w.deps, ng);
    expect(r).toMatchObject({
      kind: 'confirm',
      identityName: 'Alice Obi',
      bankName: 'GTBank',
      accountMasked: '••••6789',
      holderName: 'ALICE OBI',
    });
    expect(w.lookups).toEqual([{ bank_code: '058', account_number: '0123456789', currency: 'ngn' }]);
    expect(r.kind === 'confirm' && w.drafts.has(r.token)).toBe(true);
  });

  it('lists every field problem at once and asks the service nothing', async () => {
    const w = world();
    const r = await lookupNigerianBeneficiary(w.deps, { ...ng, identity: undefined, bankCode: '5', reason: 'x' });
    expect(r).toEqual({
      kind: 'invalid',
      identity: 'missing',
      errors: { bank_code: expect.any(String), reason: expect.any(String) },
    });
    expect(w.lookups).toEqual([]);
  });

  it('refuses an identity the service called inactive, or one Rampart has not seen', async () => {
    const w = world();
    expect(await lookupNigerianBeneficiary(w.deps, { ...ng, identity: 'idn_gone' })).toMatchObject({
      kind: 'invalid',
      identity: 'inactive',
    });
    expect(await lookupNigerianBeneficiary(w.deps, { ...ng, identity: 'idn_nobody' })).toMatchObject({
      identity: 'unknown',
    });
  });

  it('says which account was not found, and keeps no draft', async () => {
    const w = world({
      lookup: async () => {
        throw new ServiceError('SERVICE_REJECTED', 'not found', {
          operation: 'lookupAccount',
          status: 404,
          mayHaveReached: true,
          refused: true,
        });
      },
    });
    expect(await lookupNigerianBeneficiary(w.deps, ng)).toEqual({ kind: 'not-found', bankCode: '058', last4: '6789' });
    expect(w.drafts.size).toBe(0);
  });

  it('hands any other failure to the edge to phrase', async () => {
    const boom = new Error('socket hang up');
    const w = world({ lookup: () => Promise.reject(boom) });
    expect(await lookupNigerianBeneficiary(w.deps, ng)).toEqual({ kind: 'unavailable', error: boom });
  });
});

describe('confirmNigerianBeneficiary', () => {
  it('freezes the looked-up account as an approval-gated beneficiary request, once per form', async () => {
    const w = world();
    const looked = await lookupNigerianBeneficiary(w.deps, ng);
    if (looked.kind !== 'confirm') throw new Error(`expected a confirmation, got ${looked.kind}`);
    const c = { token: looked.token, user: 'U7', submission: 'V1' };
    const r = await confirmNigerianBeneficiary(w.deps, c);
    expect(r.kind).toBe('submitted');
    expect(w.created).toHaveLength(1);
    expect(w.created[0]).toMatchObject({
      requester: 'U7',
      origin: 'C1',
      requiredApprovals: 1,
      call: {
        kind: 'beneficiary',
        body: { currency: 'ngn', identity_id: ALICE.id, details: { bank_code: '058', account_number: '0123456789' } },
      },
      display: { holderName: 'ALICE OBI', holderSource: 'lookup', accountMasked: '••••6789' },
    });
    const id = w.created[0]?.id;
    expect(await confirmNigerianBeneficiary(w.deps, c)).toEqual({ kind: 'duplicate', id });
    expect(w.created).toHaveLength(1);
  });

  it('forgets the draft once submitted; a repeated confirm then says which request the form became', async () => {
    const w = world();
    const looked = await lookupNigerianBeneficiary(w.deps, ng);
    if (looked.kind !== 'confirm') throw new Error(`expected a confirmation, got ${looked.kind}`);
    const c = { token: looked.token, user: 'U7', submission: 'V1' };
    expect((await confirmNigerianBeneficiary(w.deps, c)).kind).toBe('submitted');
    await forgetBeneficiaryDraft(w.deps, looked.token);
    expect(w.drafts.size).toBe(0);
    expect(await confirmNigerianBeneficiary(w.deps, c)).toEqual({ kind: 'duplicate', id: w.created[0]?.id });
  });

  it('treats another person, or a draft that is gone, as an expired form', async () => {
    const w = world();
    const looked = await lookupNigerianBeneficiary(w.deps, ng);
    if (looked.kind !== 'confirm') throw new Error(`expected a confirmation, got ${looked.kind}`);
    expect(await confirmNigerianBeneficiary(w.deps, { token: looked.token, user: 'U8', submission: 'V1' })).toEqual({
      kind: 'expired',
    });
    expect(await confirmNigerianBeneficiary(w.deps, { token: 'gone', user: 'U7', submission: 'V1' })).toEqual({
      kind: 'expired',
    });
    expect(w.created).toEqual([]);
  });
});

describe('submitCrossBorderBeneficiary', () => {
  const address = {
    addr_house_no: '10',
    addr_street: 'Downing St',
    addr_city: 'London',
    addr_state: 'London',
    addr_postal_code: 'SW1A 2AA',
    addr_country: 'GB',
  };
  const form = {
    identity: ALICE.id,
    fields: { bank_name: 'Barclays', account_name: 'Alice Obi', iban: 'GB33BUKB20201555555555', ...address },
    reason: 'UK supplier',
    requester: 'U7',
    channel: undefined,
    submission: 'V2',
  };

  it('freezes the typed details with the address, the holder marked as typed', async () => {
    const w = world();
    expect((await submitCrossBorderBeneficiary(w.deps, form)).kind).toBe('submitted');
    expect(w.created[0]).toMatchObject({
      call: {
        body: {
          details: {
            iban: 'GB33BUKB20201555555555',
            bank_address: { house_no: 10, street: 'Downing St', country: 'GB' },
          },
        },
      },
      display: { holderName: 'Alice Obi', holderSource: 'typed', bankName: 'Barclays' },
    });
  });

  it('names every missing address field and the missing account, and stores nothing', async () => {
    const w = world();
    const r = await submitCrossBorderBeneficiary(w.deps, {
      ...form,
      fields: { bank_name: 'Barclays', addr_house_no: 'ten' },
    });
    expect(r.kind).toBe('invalid');
    expect(r.kind === 'invalid' && Object.keys(r.errors).sort()).toEqual([
      'account_number',
      'addr_city',
      'addr_country',
      'addr_house_no',
      'addr_postal_code',
      'addr_state',
      'addr_street',
    ]);
    expect(w.created).toEqual([]);
  });

  it('says nothing was submitted when Redis ran the create too late', async () => {
    const w = world({ late: true });
    expect(await submitCrossBorderBeneficiary(w.deps, form)).toEqual({ kind: 'nothing' });
    expect(w.created).toEqual([]);
  });
});
