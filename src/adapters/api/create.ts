/**
 * POST /api/v1/transfers and /offramps: the body's fields, then the app's
 * payments.submitWithKey (the key's limits, the freeze, known payees, the Slack modal's use case).
 * An Answer says whether Idempotency-Key may keep it: only the create and refusals that the
 * same body always gets (fields, unknown wallet, the key's fixed limits); never the transient ones.
 */
import type { KeyRefusal } from '../../domain/api-key.js';
import type { KeyActor } from '../../domain/api-rules.js';
import { emptyCounts, sealHash, singleCounts } from '../../domain/approval.js';
import type { SealedRequest } from '../../domain/request.js';
import type { SeriesKeyRefusal } from '../../domain/rules/series.js';
import type { ApiDeps } from './deps.js';
import { checkFields, type MoneyKind } from './fields.js';
import { presentRequest } from './present.js';
import { fieldProblem, type ProblemAnswer, problem, retryAfter } from './problem.js';

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** May Idempotency-Key store it and replay it (201 and deterministic 4xx only)? */
  keep: boolean;
}

export const refused = (p: ProblemAnswer, keep: boolean): Answer => ({
  status: p.problem.status,
  body: p.problem,
  ...(p.headers ? { headers: p.headers } : {}),
  keep,
});

/** The 201 body: the request as it was created, so a replay is byte for byte the first answer. */
export const createdAnswer = (sealed: SealedRequest): Answer => ({
  status: 201,
  body: presentRequest(
    {
      sealed,
      state: 'pending',
      votes: [],
      approvalState: 'pending',
      // A series has no execution of its own: each run is an approval of its own.
      ...(sealed.schedule
        ? { shape: 'series' as const, executionCount: 0, counts: emptyCounts(), executions: [] }
        : {
            shape: 'single' as const,
            executionCount: 1,
            counts: singleCounts('queued'),
            executions: [
              {
                id: `${sealed.id}.1`,
                approvalId: sealed.id,
                state: 'queued' as const,
                sealHash: sealHash(sealed.call),
                tries: 0,
              },
            ],
          }),
    },
    [{ at: sealed.createdAt, event: 'requested', by: sealed.requester, detail: sealed.reason }],
  ),
  headers: { Location: `/api/v1/requests/${sealed.id}` },
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

/** A limit of the key: kept when it belongs on a field (the same body always gets it). */
export function keyLimitAnswer(
  refusal: KeyRefusal | SeriesKeyRefusal,
  pointer = refusal.field && `/${refusal.field}`,
): Answer {
  // Authentication refuses a key that is not active first; a race with a revoke lands here.
  if (refusal.code === 'key_not_active') return refused(problem(401, 'unauthorized', refusal.message), false);
  const errors = pointer ? { errors: [{ pointer, detail: refusal.message }] } : {};
  return refused(problem(403, refusal.code, refusal.message, errors), refusal.field !== undefined);
}

/** Frozen: transient, so never kept. */
export const frozenAnswer = (message: string): Answer => refused(problem(409, 'frozen', message), false);

export async function createRequest(
  deps: ApiDeps,
  actor: KeyActor,
  kind: MoneyKind,
  value: unknown,
  submission: string,
): Promise<Answer> {
  const checked = checkFields(kind, value, deps.wallets);
  if (!checked.ok)
    return refused(fieldProblem(checked.errors, checked.onlyWallet ? 'unknown_wallet' : 'invalid_field'), true);
  const outcome = await deps.app.payments.submitWithKey(actor, {
    kind,
    draft: checked.draft,
    amount: checked.body.amount,
    submission,
    // An absolute moment (its offset says the zone); undefined when it is not one.
    ...(checked.body.run_at === undefined ? {} : { runAt: parseInstant(checked.body.run_at) }),
    ...(checked.schedule ? { schedule: checked.schedule } : {}),
  });
  switch (outcome.kind) {
    case 'key_limit':
      return keyLimitAnswer(outcome.refusal);
    case 'schedule':
      return refused(
        fieldProblem([{ pointer: schedulePointer(outcome.field), detail: outcome.message }], 'invalid_field'),
        true,
      );
    case 'frozen':
      return frozenAnswer(outcome.message);
    case 'new_destination': {
      const { code, message, detail } = outcome.refusal;
      return refused(problem(403, code, message, { errors: [{ pointer: '/receiver', detail }] }), false);
    }
    case 'invalid': {
      const errors = Object.entries(outcome.errors).map(([f, detail]) => ({
        pointer: `/${f === 'when' ? 'run_at' : f}`,
        detail: detail ?? '',
      }));
      if (outcome.refusal === 'velocity') return refused(fieldProblem(errors, 'velocity_exceeded', 422), false);
      if (outcome.refusal === 'policy') return refused(fieldProblem(errors, 'policy_refused', 422), false);
      if (outcome.refusal === 'too_many_open')
        return refused(problem(403, 'too_many_open', outcome.errors.reason ?? ''), false);
      // Screening refuses the destination (the list, or SCREENING_URL's service): the same body
      // is refused while it is listed.
      if (outcome.refusal) return refused(fieldProblem(errors, outcome.refusal, 403), false);
      // The balance or the beneficiary registry said no: true now, perhaps not later.
      return refused(fieldProblem(errors, 'invalid_field', 422), false);
    }
    case 'unchecked':
      return refused(SERVICE_UNAVAILABLE, false);
    case 'nothing':
      return refused(NOT_SUBMITTED, false);
    case 'created':
      return createdAnswer(outcome.sealed);
  }
}

/** The create happened but its answer was lost: answered again from the stored request. */
export async function recoverCreated(deps: ApiDeps, actor: KeyActor, requestId: string): Promise<Answer> {
  return createdAnswer((await deps.app.payments.recoverWithKey(actor, requestId)).sealed);
}

/** Where a schedule problem was typed: the API's own field names (`runs`, `until` for ends). */
function schedulePointer(field: string): string {
  if (field === 'ends') return '/schedule/runs';
  return `/schedule/${field}`;
}

/** ISO 8601 with a date, a time and an offset (Z or ±hh:mm); anything else is not a moment. */
function parseInstant(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text.trim())) return undefined;
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? undefined : ms;
}
