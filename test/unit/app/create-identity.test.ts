/** The create-identity use case with in-memory ports: who may, what is checked, and what a failure leaves. */
import { describe, expect, it } from 'vitest';
import { type CreateIdentityDeps, checkNewIdentity, createIdentity } from '../../../src/app/create-identity.js';
import { createLogger } from '../../../src/log.js';
import { ServiceError } from '../../../src/service/errors.js';
import type { IdentityEntry } from '../../../src/store/registry.js';

const TODAY = Date.UTC(2026, 10, 23);

function world(create: () => Promise<{ id: string; link: string | null }> = async () => ({ id: 'idn_1', link: null })) {
  const stored: IdentityEntry[] = [];
  const asked: string[] = [];
  const calls: unknown[] = [];
  const deps = {
    service: {
      async createIdentity(body: unknown) {
        calls.push(body);
        return create();
      },
    },
    registry: { addIdentity: async (e: IdentityEntry) => void stored.push(e) },
    identityCreators: {
      async isApprover(u: string) {
        asked.push(u);
        return u === 'U1';
      },
    },
    log: createLogger({ level: 'silent' }),
    now: () => TODAY,
  } as unknown as CreateIdentityDeps;
  return { deps, stored, asked, calls };
}

const form = { name: ' Ada Obi ', bvn: '223 344 556 67', dob: '1990-02-01' };

describe('checkNewIdentity', () => {
  it('turns the form into the service body: BVN without spaces, date of birth DD-MM-YYYY', async () => {
    const w = world();
    expect(await checkNewIdentity(w.deps, form, 'U1')).toEqual({
      kind: 'ready',
      body: { type: 'BVN', name: 'Ada Obi', details: { bvn: '22334455667', dob: '01-02-1990' } },
    });
  });

  it('lists every field problem at once, before asking who the person is', async () => {
    const w = world();
    expect(await checkNewIdentity(w.deps, { name: 'A', bvn: '1234', dob: '2030-01-01' }, 'U1')).toEqual({
      kind: 'invalid',
      errors: {
        name: 'Type the full name as registered with the bank.',
        bvn: 'A BVN is exactly 11 digits.',
        dob: 'A date of birth cannot be in the future.',
      },
    });
    expect(await checkNewIdentity(w.deps, { ...form, dob: '1990-02-30' }, 'U1')).toMatchObject({
      errors: { dob: 'That is not a real date of birth.' },
    });
    expect(w.asked).toEqual([]);
  });

  it('refuses someone who is not an identity creator', async () => {
    const w = world();
    expect(await checkNewIdentity(w.deps, form, 'U9')).toEqual({ kind: 'not-allowed' });
  });

  it('says the creators’ user group could not be checked, not "not allowed", when Slack fails', async () => {
    const w = world();
    const deps = {
      ...w.deps,
      identityCreators: {
        isApprover: async () => {
          throw new Error('usergroups.users.list failed');
        },
      },
    };
    expect(await checkNewIdentity(deps, form, 'U1')).toEqual({ kind: 'check-failed' });
  });
});

describe('createIdentity', () => {
  const body = { type: 'BVN' as const, name: 'Ada Obi', details: { bvn: '22334455667', dob: '01-02-1990' } };

  it('records the created identity with the last four digits only', async () => {
    const w = world(async () => ({ id: 'idn_1', link: 'https://verify.example/x' }));
    expect(await createIdentity(w.deps, body, 'U1')).toEqual({
      kind: 'created',
      id: 'idn_1',
      name: 'Ada Obi',
      bvnMasked: expect.stringMatching(/5667$/),
      link: 'https://verify.example/x',
    });
    expect(w.stored).toEqual([
      { id: 'idn_1', name: 'Ada Obi', type: 'bvn', bvnLast4: '5667', createdBy: 'U1', createdAt: TODAY },
    ]);
    expect(JSON.stringify(w.stored)).not.toContain('22334455667');
  });

  it('calls a refusal a failure, and a time-out "unknown" (it may have been created); neither is retried', async () => {
    const refused = world(() =>
      Promise.reject(
        new ServiceError('SERVICE_REJECTED', 'bad BVN', {
          operation: 'createIdentity',
          status: 400,
          mayHaveReached: true,
          refused: true,
        }),
      ),
    );
    expect((await createIdentity(refused.deps, body, 'U1')).kind).toBe('failed');
    const timedOut = world(() =>
      Promise.reject(
        new ServiceError('SERVICE_TIMEOUT', 'no answer', { operation: 'createIdentity', mayHaveReached: true }),
      ),
    );
    expect((await createIdentity(timedOut.deps, body, 'U1')).kind).toBe('unknown');
    expect(timedOut.calls).toHaveLength(1);
    expect(timedOut.stored).toEqual([]);
  });

  it('calls a failed registry write after the create "unknown": the identity exists at the service', async () => {
    const w = world();
    w.deps.registry.addIdentity = () => Promise.reject(new Error('Connection is closed.'));
    expect((await createIdentity(w.deps, body, 'U1')).kind).toBe('unknown');
  });
});
