/**
 * POST /api/v1/batches: JSON rows become one batch approval `B-<n>` through the app's
 * batches.submitWithKey (the same use cases as a /batch upload, with the key's limits applied to
 * the batch as ONE request), so the same rows are refused with the same sentences, the card is the
 * batch card, and the policy judges the total. This file only phrases the outcome.
 */
import type { KeyActor } from '../../domain/api-rules.js';
import { emptyCounts } from '../../domain/approval.js';
import type { BatchRowRecord } from '../../domain/batch-approval.js';
import type { SealedRequest } from '../../domain/request.js';
import { checkBatchBody, rowPointer } from './batch-fields.js';
import { type Answer, frozenAnswer, keyLimitAnswer, NOT_SUBMITTED, refused, SERVICE_UNAVAILABLE } from './create.js';
import type { ApiDeps } from './deps.js';
import { presentRequest } from './present.js';
import { fieldProblem, problem } from './problem.js';
import { encodeExecutionsCursor } from './request-view.js';

/** Executions a batch's 201 embeds (the rest by cursor), so a stored answer stays small. */
const CREATED_EXECUTIONS = 20;

/** The 201 body: the batch as created (every row queued), the same for a replay and a recovery. */
export function createdBatchAnswer(sealed: SealedRequest, rows: readonly BatchRowRecord[]): Answer {
  const n = rows.length;
  const shown = Math.min(n, CREATED_EXECUTIONS);
  const counts = { ...emptyCounts(), queued: n };
  const record = {
    sealed,
    shape: 'batch',
    state: 'pending',
    votes: [],
    approvalState: 'pending',
    executionCount: n,
    counts,
  } as const;
  return {
    status: 201,
    body: presentRequest(
      { ...record, votes: [], executions: [] },
      [{ at: sealed.createdAt, event: 'requested', by: sealed.requester, detail: sealed.reason }],
      {
        executions: Array.from({ length: shown }, (_, i) => ({
          id: `${sealed.id}.${i + 1}`,
          state: 'queued' as const,
        })),
        rows,
        next: shown < n ? encodeExecutionsCursor(sealed.id, shown) : null,
      },
    ),
    headers: { Location: `/api/v1/requests/${sealed.id}` },
    keep: true,
  };
}

export async function createBatch(deps: ApiDeps, actor: KeyActor, value: unknown, submission: string): Promise<Answer> {
  const checked = checkBatchBody(value, deps.wallets, deps.maxRows);
  if (!checked.ok)
    return refused(fieldProblem(checked.errors, checked.onlyWallet ? 'unknown_wallet' : 'invalid_field'), true);
  const { body, wallet, asset, rows } = checked;
  const outcome = await deps.app.batches.submitWithKey(actor, {
    kind: body.kind,
    walletName: body.wallet,
    assetName: body.asset,
    wallet,
    asset,
    cells: body.cells,
    rows,
    reason: body.reason,
    submission,
  });
  switch (outcome.kind) {
    case 'key_limit':
      // The key's --max-amount bounds the batch's total: a batch is one request.
      return keyLimitAnswer(outcome.refusal, outcome.refusal.field === 'amount' ? '/rows' : undefined);
    case 'frozen':
      return frozenAnswer(outcome.message);
    case 'new_destination':
      return refused(
        problem(403, 'new_destination_not_allowed', outcome.message, {
          errors: outcome.rows.map((row) => ({
            pointer: rowPointer({ row, column: 'receiver', message: '' }),
            detail: outcome.detail,
          })),
        }),
        false,
      );
    case 'unchecked':
      return refused(SERVICE_UNAVAILABLE, false);
    case 'invalid': {
      // The balance, the velocity limits or the beneficiary registry said no: true now, perhaps not later.
      const errors = [
        ...outcome.fileErrors.map((detail) => ({ pointer: '/rows', detail })),
        ...outcome.rowErrors.map((e) => ({ pointer: rowPointer(e), detail: e.message })),
      ];
      // Rows the sanctions list refuses: the code says so; each row names the list and its date.
      if (outcome.screening) return refused(fieldProblem(errors, outcome.screening, 403), false);
      return refused(fieldProblem(errors, 'invalid_field', 422), false);
    }
    case 'policy_refused': {
      const detail = `This batch cannot be approved: ${outcome.reason}.`;
      return refused(fieldProblem([{ pointer: '/rows', detail }], 'policy_refused', 422), false);
    }
    case 'too_many_open':
      return refused(problem(403, 'too_many_open', outcome.message), false);
    case 'nothing':
      return refused(NOT_SUBMITTED, false);
    case 'created':
      return createdBatchAnswer(outcome.sealed, outcome.rows);
  }
}

/** A batch created whose answer was lost: answered again from the stored batch. */
export async function recoverBatch(deps: ApiDeps, actor: KeyActor, requestId: string): Promise<Answer> {
  const { sealed, rows } = await deps.app.batches.recoverWithKey(actor, requestId);
  return createdBatchAnswer(sealed, rows);
}
