/**
 * POST /api/v1/transfers and /offramps (issue 21): the body's fields, the key's limits, then the
 * same use case as the Slack modal (submitRequest, then announce for the card and the expiry).
 * An Answer says whether Idempotency-Key may keep it: only the create and refusals that the
 * same body always gets (fields, unknown wallet, the key's fixed limits); never the transient ones.
 */

import { withDeadline } from '../app/deadline.js';
import { announce } from '../app/post-request.js';
import { submitRequest } from '../app/submit-request.js';
import { type ApiKey, keyLimitRefusal } from '../domain/api-key.js';
import { sealHash, singleCounts } from '../domain/approval.js';
import type { Draft } from '../domain/draft.js';
import type { SealedRequest } from '../domain/request.js';
import { freezeRule, newDestinationRule } from '../domain/rules/index.js';
import type { ApiDeps } from './deps.js';
import { checkFields, type MoneyKind } from './fields.js';
import { presentRequest } from './present.js';
import { fieldProblem, type ProblemAnswer, problem, retryAfter } from './problem.js';

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** May Idempotency-Key store it and replay it (issue 21: 201 and deterministic 4xx only)? */
  keep: boolean;
}

export const refused = (p: ProblemAnswer, keep: boolean): Answer => ({
  status: p.problem.status,
  body: p.problem,
  ...(p.headers ? { headers: p.headers } : {}),
  keep,
});

/** The 201 body: the request as it was created, so a replay is byte for byte the first answer. */
export const createdAnswer = (frozen: SealedRequest): Answer => ({
  status: 201,
  body: presentRequest(
    {
      frozen,
      state: 'pending',
      votes: [],
      approvalState: 'pending',
      executionCount: 1,
      counts: singleCounts('queued'),
      executions: [
        { id: `${frozen.id}.1`, approvalId: frozen.id, state: 'queued', sealHash: sealHash(frozen.call), tries: 0 },
      ],
    },
    [{ at: frozen.createdAt, event: 'requested', by: frozen.requester, detail: frozen.reason }],
  ),
  headers: { Location: `/api/v1/requests/${frozen.id}` },
  keep: true,
});

export const SERVICE_UNAVAILABLE = problem(
  503,
  'service_unavailable',
  'The wallet service could not be asked for the balance; nothing was submitted. Try again shortly.',
  { headers: retryAfter(5000) },
);
export const NOT_SUBMITTED = problem(
  503,
  'not_submitted',
  'Rampart could not store the request in time; nothing was submitted. Try again shortly.',
  { headers: retryAfter(2000) },
);

/**
 * Frozen: transient, so never kept. The key's --max-open (a batch counts as one) and the owner's
 * MAX_OPEN_PER_REQUESTER are held by the create itself (app/post-request.ts), not read here.
 */
export async function frozenRefusal(deps: ApiDeps): Promise<ProblemAnswer | undefined> {
  if (!freezeRule((await deps.controls.freeze()) !== undefined).ok)
    return problem(409, 'frozen', 'Rampart is frozen by an operator; no new payments are taken until it is unfrozen.');
  return undefined;
}

/** Transient refusals: the same body may pass later (issue 21), so none is kept. */
async function transientRefusal(deps: ApiDeps, key: ApiKey, draft: Draft): Promise<ProblemAnswer | undefined> {
  const first = await frozenRefusal(deps);
  if (first) return first;
  if (draft.kind === 'transfer' && draft.receiver && !key.limits.allowNewDestinations) {
    if (!newDestinationRule(key.limits, await deps.store.knownPayee(draft.asset.chain, draft.receiver)).ok)
      return problem(
        403,
        'new_destination_not_allowed',
        `API key ${key.name} may pay only addresses Rampart has paid before; request this one in Slack, or use a key created with --allow-new-destinations.`,
        { errors: [{ pointer: '/receiver', detail: 'Rampart has never paid this address.' }] },
      );
  }
  return undefined;
}

export async function createRequest(
  deps: ApiDeps,
  key: ApiKey,
  kind: MoneyKind,
  value: unknown,
  submission: string,
): Promise<Answer> {
  const checked = checkFields(kind, value, deps.config.wallets);
  if (!checked.ok)
    return refused(fieldProblem(checked.errors, checked.onlyWallet ? 'unknown_wallet' : 'invalid_field'), true);
  const limit = keyLimitRefusal(key, {
    wallet: checked.draft.walletAlias,
    asset: checked.draft.asset.id,
    amount: checked.body.amount ?? '',
  });
  if (limit)
    return refused(
      problem(403, limit.code, limit.message, {
        ...(limit.field ? { errors: [{ pointer: `/${limit.field}`, detail: limit.message }] } : {}),
      }),
      limit.field !== undefined,
    );
  const transient = await transientRefusal(deps, key, checked.draft);
  if (transient) return refused(transient, false);
  const outcome = await submitRequest(
    { ...deps, withinBudget: (work) => withDeadline(work, deps.checkBudgetMs) },
    {
      input: {
        kind,
        wallet: checked.draft.walletAlias,
        asset: checked.draft.asset.id,
        amount: checked.body.amount,
        entireBalance: false,
        receiver: checked.draft.receiver,
        beneficiary: checked.draft.beneficiaryId,
        reason: checked.draft.reason,
      },
      requester: key.owner,
      origin: undefined,
      submission,
      via: { keyId: key.id, keyName: key.name, owner: key.owner, maxOpen: key.limits.maxOpen },
    },
  );
  switch (outcome.kind) {
    case 'invalid': {
      const errors = Object.entries(outcome.errors).map(([f, detail]) => ({ pointer: `/${f}`, detail: detail ?? '' }));
      if (outcome.refusal === 'velocity') return refused(fieldProblem(errors, 'velocity_exceeded', 422), false);
      if (outcome.refusal === 'policy') return refused(fieldProblem(errors, 'policy_refused', 422), false);
      if (outcome.refusal === 'too_many_open')
        return refused(problem(403, 'too_many_open', outcome.errors.reason ?? ''), false);
      // The balance or the beneficiary registry said no: true now, perhaps not later.
      return refused(fieldProblem(errors, 'invalid_field', 422), false);
    }
    case 'unchecked':
      deps.log.warn({ err: outcome.error, apiKey: key.name }, 'API request not checked: the wallet service failed');
      return refused(SERVICE_UNAVAILABLE, false);
    case 'nothing':
      return refused(NOT_SUBMITTED, false);
    case 'duplicate':
      return recoverCreated(deps, key, outcome.id);
    case 'submitted': {
      const { frozen } = outcome;
      await deps.keys.recordRequest(key.owner, frozen.id, frozen.createdAt);
      await announce(deps, frozen);
      return createdAnswer(frozen);
    }
  }
}

/**
 * The create happened but its answer was lost (the process died, or an attempt is between the
 * create and its answer): answer it again from the stored request, and make sure the card and
 * the expiry follow (announce is safe to repeat: one card per request).
 */
export async function recoverCreated(deps: ApiDeps, key: ApiKey, requestId: string): Promise<Answer> {
  const record = await deps.store.get(requestId);
  if (!record) throw new Error(`request ${requestId} holds a claim but has no record`);
  await deps.keys.recordRequest(key.owner, requestId, record.frozen.createdAt);
  if (record.state === 'pending') await announce(deps, record.frozen);
  return createdAnswer(record.frozen);
}
