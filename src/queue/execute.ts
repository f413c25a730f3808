/**
 * Executes one approved request against the service, at most once (DESIGN invariant 3):
 * approved → executing by compare-and-set before the call; the frozen call, never anything
 * else; no retry unless the call provably never left; anything ambiguous ends in `unknown`.
 */

import { callHash, type FrozenRequest, type RequestOutcome, type ServiceCall } from '../domain/request.js';
import { velocitySubject } from '../domain/velocity.js';
import type { Logger } from '../log.js';
import { failureFacts } from '../service/classify.js';
import type { ServiceClient } from '../service/client.js';
import type { ControlStore } from '../store/controls.js';
import type { Registry } from '../store/registry.js';
import type { RequestStore } from '../store/requests.js';
import type { Queues } from './queues.js';

export interface ExecuteDeps {
  service: ServiceClient;
  store: RequestStore;
  registry: Registry;
  queues: Queues;
  log: Logger;
  workerName: string;
  /** Issue 13: freeze check before the compare-and-set; a failed request frees its headroom. */
  controls?: ControlStore;
}

// 'frozen' (issue 13): the freeze held the compare-and-set; nothing changed, the job waits.
export type ExecuteResult = 'succeeded' | 'failed' | 'unknown' | 'retry' | 'skipped' | 'frozen';

export class RetryableNotSentError extends Error {
  override readonly name = 'RetryableNotSentError';
}

async function callService(service: ServiceClient, call: ServiceCall): Promise<RequestOutcome> {
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
      throw new Error('register-beneficiary makes no service call');
  }
}

/**
 * issue 11: an approved registration of existing beneficiaries calls nothing; it records every
 * stated beneficiary in the registry, or none when one of them was registered meanwhile.
 */
async function registerStated(
  deps: ExecuteDeps,
  frozen: FrozenRequest,
  decidedBy: string | undefined,
): Promise<RequestOutcome & { ok: boolean }> {
  const { call, display, requester, id } = frozen;
  if (call.kind !== 'register-beneficiary') return { ok: false, message: 'not a registration' };
  const bvnOf = new Map((display.identitiesChecked ?? []).map((i) => [i.id, i.bvnLast4]));
  const at = Date.now();
  const taken = await deps.registry.addBeneficiariesIfAbsent(
    call.body.beneficiaries.map((b) => ({
      id: b.beneficiary_id,
      label: b.label,
      identityId: b.identity_id,
      identityName: bvnOf.get(b.identity_id) ? `${b.identity_id} (BVN ••••${bvnOf.get(b.identity_id)})` : b.identity_id,
      bankName: b.bank_name,
      accountMasked: `••••${b.account_last4}`,
      holderName: '',
      createdBy: requester,
      approvedBy: decidedBy ?? '',
      createdAt: at,
      requestId: id,
      asStated: true,
    })),
  );
  if (taken.length > 0)
    return {
      ok: false,
      message: `${taken.slice(0, 5).join(', ')}${taken.length > 5 ? ` and ${taken.length - 5} more` : ''} ${taken.length === 1 ? 'was' : 'were'} registered meanwhile by another request, so nothing was registered`,
    };
  const n = call.body.beneficiaries.length;
  return { ok: true, message: `${n} beneficiar${n === 1 ? 'y' : 'ies'} registered as stated` };
}

/** Marks an `executing` request `unknown` (a crash or stall left it there) and says so loudly. */
export async function markUnknown(
  deps: Pick<ExecuteDeps, 'store' | 'queues' | 'log'>,
  requestId: string,
  why: string,
): Promise<boolean> {
  const r = await deps.store.transition(
    requestId,
    ['executing'],
    'unknown',
    { event: 'unknown', detail: why },
    { outcome: JSON.stringify({ message: why }) },
  );
  if (r.ok) {
    deps.log.error({ requestId, why }, 'request outcome unknown');
    await deps.queues.notify({ requestId, kind: 'unknown' });
  }
  return r.ok;
}

export async function executeRequest(
  deps: ExecuteDeps,
  requestId: string,
  isLastAttempt: boolean,
): Promise<ExecuteResult> {
  const { store, log } = deps;
  // One compare-and-set that also returns what to run: no separate read (issue 12).
  const started = await store.startExecution(requestId, deps.workerName, deps.controls?.freezeKey);
  if (started.token === undefined && started.held) return 'frozen';
  if (started.token === undefined) {
    if (started.from === undefined) {
      log.error({ requestId }, 'execute: request record missing; nothing called');
      return 'skipped';
    }
    if (started.from === 'executing') {
      // Someone began this call and never finished: it may have reached the service.
      await markUnknown(
        deps,
        requestId,
        'a worker stopped while this request was executing; it may or may not have reached the service',
      );
      return 'unknown';
    }
    log.warn({ requestId, state: started.from }, 'execute: request not in approved state; nothing called');
    return 'skipped';
  }
  const { token, frozen } = started;
  // A card refresh must never stand between the compare-and-set and the call, nor delay it.
  void deps.queues
    .notify({ requestId, kind: 'card' })
    .catch((err: unknown) => log.warn({ err, requestId }, 'could not queue a card refresh'));

  // Invariant 2: what runs is byte-for-byte what was approved.
  if (callHash(frozen.call) !== frozen.hash) {
    await store.finishExecution(requestId, token, 'failed', {
      message: 'integrity check failed: the stored call does not match its hash',
    });
    await deps.queues.notify({ requestId, kind: 'outcome' });
    return 'failed';
  }

  // Issue 19: a record sealed before Rampart stopped sending -1 would move whatever the wallet
  // holds now, possibly more than the approvers saw. Refuse it; nothing is sent.
  if ((frozen.call.kind === 'transfer' || frozen.call.kind === 'offramp') && frozen.call.body.amount === -1) {
    await finish(
      'failed',
      {
        message:
          'it asked for the entire balance without an exact amount, which could move more than the approvers saw; nothing was sent. Request it again with an exact amount',
      },
      'refused: amount not fixed',
    );
    return 'failed';
  }

  if (frozen.call.kind === 'register-beneficiary') {
    const { ok, ...result } = await registerStated(deps, frozen, started.decidedBy);
    await finish(ok ? 'succeeded' : 'failed', result, result.message);
    return ok ? 'succeeded' : 'failed';
  }

  let outcome: RequestOutcome;
  try {
    outcome = await callService(deps.service, frozen.call);
  } catch (err) {
    // Stored as data; each edge writes its own sentence from it (issue 12, item 5).
    const failure = failureFacts(err);
    switch (failure.class) {
      case 'never-sent':
        if (!isLastAttempt) {
          // No byte of the request was written: it may be tried again.
          await store.finishExecution(requestId, token, 'approved', { failure }, 'not sent; will retry');
          log.warn({ requestId, err }, 'execute: the call was never sent; retrying');
          throw new RetryableNotSentError('the call was never sent; it will be tried again');
        }
        await finish('failed', { failure }, 'never sent');
        return 'failed';
      case 'refused':
        log.warn({ requestId, err }, 'execute: the call was refused; nothing moved');
        await finish('failed', { failure }, 'refused');
        return 'failed';
      case 'ambiguous':
        // 5xx, time-out, reset, unreadable answer: it may have happened, so never again.
        log.error({ requestId, err }, 'execute: outcome unknown');
        await finish('unknown', { failure }, 'no clear answer from the service');
        return 'unknown';
    }
  }
  const done = await finish('succeeded', outcome);
  const { call, display } = frozen;
  if (done && call.kind === 'transfer' && display.chain) await store.addPayee(display.chain, call.body.receiver);
  if (done && call.kind === 'beneficiary' && outcome.id) {
    // Only an approved, created beneficiary becomes a payout choice (issue 5).
    await deps.registry.addBeneficiary({
      id: outcome.id,
      label: display.beneficiaryLabel ?? outcome.id,
      identityId: call.body.identity_id,
      identityName: display.identityLabel ?? call.body.identity_id,
      bankName: display.bankName ?? '',
      accountMasked: display.accountMasked ?? '',
      holderName: display.holderName ?? '',
      ...(display.holderSource ? { holderSource: display.holderSource } : {}),
      createdBy: frozen.requester,
      approvedBy: started.decidedBy ?? '',
      createdAt: Date.now(),
      requestId: frozen.id,
    });
  }
  return 'succeeded';

  async function finish(
    to: 'succeeded' | 'failed' | 'unknown',
    result: RequestOutcome,
    detail?: string,
  ): Promise<boolean> {
    const r = await store.finishExecution(requestId, token, to, result, detail);
    // issue 13: `failed` gives velocity headroom back; `unknown` keeps it (it may have moved).
    const subject = velocitySubject(frozen);
    if (r.ok && to === 'failed' && subject) await deps.controls?.releaseHeadroom(subject, requestId);
    if (!r.ok)
      log.error({ requestId, to, state: r.from }, 'execute: could not record the outcome (state changed underneath)');
    await deps.queues.notify({ requestId, kind: to === 'unknown' ? 'unknown' : 'outcome' });
    return r.ok;
  }
}
