/**
 * Puts identities and beneficiaries into the sandbox through its own HTTP interface, as another
 * tool or the service's dashboard would — never through Rampart.
 */
import { request } from 'undici';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { ServiceClient } from '../../src/service/client.js';
import { SERVICE_KEY } from './harness.js';

async function post(sandbox: Sandbox, path: string, body: unknown): Promise<{ id: string }> {
  const res = await request(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': SERVICE_KEY },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as { success: boolean; data?: { id: string }; message?: string };
  if (!json.success || !json.data) throw new Error(`seeding ${path} failed: ${json.message}`);
  return json.data;
}

export const seedIdentity = (sandbox: Sandbox, name: string, bvn: string, dob: string) =>
  post(sandbox, '/identity', { type: 'BVN', name, details: { bvn, dob } }).then((d) => d.id);

export const seedBeneficiary = (sandbox: Sandbox, identityId: string, bankCode: string, accountNumber: string) =>
  post(sandbox, '/beneficiary', {
    currency: 'ngn',
    identity_id: identityId,
    details: { bank_code: bankCode, account_number: accountNumber },
  }).then((d) => d.id);

/** An identity (`name`, `bvn`, `dob`) and its account `accountNumber` at bank `bankCode`, seeded at the service: their ids. */
export async function seedPayee(
  sandbox: Sandbox,
  who: { name: string; bvn: string; dob: string },
  bankCode: string,
  accountNumber: string,
): Promise<{ identityId: string; beneficiaryId: string }> {
  const identityId = await seedIdentity(sandbox, who.name, who.bvn, who.dob);
  return { identityId, beneficiaryId: await seedBeneficiary(sandbox, identityId, bankCode, accountNumber) };
}

/** The spec shows no way to deactivate an identity (section 3); the sandbox's state can. */
export function deactivateIdentity(sandbox: Sandbox, id: string): void {
  const identity = sandbox.state.identities.get(id);
  if (!identity) throw new Error(`no identity ${id} in the sandbox`);
  identity.isActive = false;
}

/** A decorator for Rampart's service client that counts GET balance reads per wallet id, in `reads`. */
export function countingBalanceReads(): {
  reads: Map<string, number>;
  decorate: { service(s: ServiceClient): ServiceClient };
} {
  const reads = new Map<string, number>();
  const decorate = {
    service: (service: ServiceClient): ServiceClient =>
      Object.assign(Object.create(service) as ServiceClient, {
        getBalances(id: string) {
          reads.set(id, (reads.get(id) ?? 0) + 1);
          return service.getBalances(id);
        },
      }),
  };
  return { reads, decorate };
}
