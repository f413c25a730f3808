/**
 * What an execution does besides its compare-and-sets: the service call for its kind, and what
 * an approved registration or beneficiary leaves in Rampart's registry.
 */

import { callDestination, keyAddress, type PaidDestination } from '../domain/destination-key.js';
import { bvnText } from '../domain/personal-data.js';
import type { ExecutionRecord, RequestOutcome, RequestRecord, SealedRequest, ServiceCall } from '../domain/request.js';
import { plural, pluralWord } from '../domain/words.js';
import type { ServiceClient } from '../service/client.js';
import type { Registry } from '../store/registry.js';
import type { Clock } from './ports.js';

export async function callService(service: ServiceClient, call: ServiceCall): Promise<RequestOutcome> {
  switch (call.kind) {
    case 'transfer': {
      const r = await service.transfer(call.body);
      return { hash: r.hash, link: r.link };
    }
    case 'offramp': {
      const r = await service.offramp(call.body);
      return { reference: r.reference };
    }
    case 'beneficiary': {
      const r = await service.createBeneficiary(call.body as Parameters<ServiceClient['createBeneficiary']>[0]);
      return { id: r.id };
    }
    case 'register-beneficiary':
    case 'address-book':
      throw new Error(`${call.kind} makes no service call`);
  }
}

/**
 * An approved registration of existing beneficiaries calls nothing; it records every
 * stated beneficiary in the registry, or none when one of them was registered meanwhile.
 */
export async function registerStated(
  deps: { registry: Registry; now: Clock; cooldownMs?: number | undefined },
  sealed: SealedRequest,
  decidedBy: string | undefined,
): Promise<RequestOutcome & { ok: boolean }> {
  const { call, display, requester, id } = sealed;
  if (call.kind !== 'register-beneficiary') return { ok: false, message: 'not a registration' };
  const bvnOf = new Map((display.identitiesChecked ?? []).map((i) => [i.id, i.bvnLast4]));
  const at = deps.now();
  const taken = await deps.registry.addBeneficiariesIfAbsent(
    call.body.beneficiaries.map((b) => ({
      id: b.beneficiary_id,
      label: b.label,
      identityId: b.identity_id,
      identityName: bvnOf.get(b.identity_id)
        ? `${b.identity_id} (${bvnText(bvnOf.get(b.identity_id))})`
        : b.identity_id,
      bankName: b.bank_name,
      accountMasked: `••••${b.account_last4}`,
      holderName: '',
      createdBy: requester,
      approvedBy: decidedBy ?? '',
      createdAt: at,
      requestId: id,
      asStated: true,
    })),
    deps.cooldownMs,
  );
  if (taken.length > 0)
    return {
      ok: false,
      message: `${taken.slice(0, 5).join(', ')}${taken.length > 5 ? ` and ${taken.length - 5} more` : ''} ${pluralWord(taken.length, 'was', 'were')} registered meanwhile by another request, so nothing was registered`,
    };
  const n = call.body.beneficiaries.length;
  return { ok: true, message: `${plural(n, 'beneficiary', 'beneficiaries')} registered as stated` };
}

/**
 * Where one execution of a stored approval pays: its sealed call's key, stored with it at
 * creation. An approval of several executions carries only its first call, so one created before
 * keys were stored names no destination rather than another row's.
 */
export function paidDestinationOf(
  record: RequestRecord,
  execution: ExecutionRecord | undefined,
): PaidDestination | undefined {
  const described = callDestination(record.sealed.call);
  if (described && execution?.destinationKey) return { scope: described.scope, key: execution.destinationKey };
  return record.executionCount === 1 ? described : undefined;
}

/**
 * After a success: its destination (`paid`, by default the sealed call's) is paid before; only
 * an approved, created beneficiary becomes a payout choice.
 */
export async function recordSuccess(
  deps: {
    registry: Registry;
    now: Clock;
    addPayee(scope: string, destination: string): Promise<void>;
    /** A new beneficiary's cooling-off (app/destinations/beneficiary-cooling.ts); none without it. */
    beneficiaryCooldown?: () => Promise<number | undefined>;
  },
  sealed: SealedRequest,
  outcome: RequestOutcome,
  decidedBy: string | undefined,
  paid: PaidDestination | undefined = callDestination(sealed.call),
): Promise<void> {
  const { call, display } = sealed;
  // By its destination key (domain/destination-key.ts), whose address part keys to itself.
  if (paid) await deps.addPayee(paid.scope, keyAddress(paid.key));
  if (call.kind === 'beneficiary' && outcome.id) {
    await deps.registry.addBeneficiary(
      {
        id: outcome.id,
        label: display.beneficiaryLabel ?? outcome.id,
        identityId: call.body.identity_id,
        identityName: display.identityLabel ?? call.body.identity_id,
        bankName: display.bankName ?? '',
        accountMasked: display.accountMasked ?? '',
        holderName: display.holderName ?? '',
        ...(display.holderSource ? { holderSource: display.holderSource } : {}),
        createdBy: sealed.requester,
        approvedBy: decidedBy ?? '',
        createdAt: deps.now(),
        requestId: sealed.id,
      },
      await deps.beneficiaryCooldown?.(),
    );
  }
}
