/**
 * POST /api/v1/batches (issue 21): JSON rows become one batch approval `B-<n>` through the same
 * use cases as a /batch upload (checkBatch with rows, then submitBatch), so the same rows are
 * refused with the same sentences, the card is the batch card, and the policy judges the total.
 * The key's limits apply to the batch as ONE request: its wallets and assets, --max-amount on
 * the batch's total (so a key's ceiling cannot be multiplied by rows), --max-open counting the
 * batch once, and no destination Rampart never paid unless --allow-new-destinations.
 */

import { checkBatch } from '../app/check-batch.js';
import { withDeadline } from '../app/deadline.js';
import { announce } from '../app/post-request.js';
import { batchPolicy, batchRows, submitBatch } from '../app/submit-batch.js';
import { amountToString } from '../domain/amount.js';
import { type ApiKey, keyLimitRefusal } from '../domain/api-key.js';
import { emptyCounts } from '../domain/approval.js';
import { type BatchRowRecord, rowList } from '../domain/batch-approval.js';
import type { BatchRow } from '../domain/batch-file.js';
import type { SealedRequest } from '../domain/request.js';
import { newDestinationRule } from '../domain/rules/index.js';
import { type BatchBody, checkBatchBody, rowPointer } from './batch-fields.js';
import { type Answer, frozenRefusal, NOT_SUBMITTED, refused, SERVICE_UNAVAILABLE } from './create.js';
import type { ApiDeps } from './deps.js';
import { presentRequest } from './present.js';
import { fieldProblem, type ProblemAnswer, problem } from './problem.js';
import { encodeExecutionsCursor } from './request-view.js';

/** Executions a batch's 201 embeds (the rest by cursor), so a stored answer stays small. */
const CREATED_EXECUTIONS = 20;

/** The 201 body: the batch as created (every row queued), the same for a replay and a recovery. */
export function createdBatchAnswer(frozen: SealedRequest, rows: readonly BatchRowRecord[]): Answer {
  const n = rows.length;
  const shown = Math.min(n, CREATED_EXECUTIONS);
  const counts = { ...emptyCounts(), queued: n };
  const record = { frozen, state: 'pending', votes: [], approvalState: 'pending', executionCount: n, counts } as const;
  return {
    status: 201,
    body: presentRequest(
      { ...record, votes: [], executions: [] },
      [{ at: frozen.createdAt, event: 'requested', by: frozen.requester, detail: frozen.reason }],
      {
        executions: Array.from({ length: shown }, (_, i) => ({
          id: `${frozen.id}.${i + 1}`,
          state: 'queued' as const,
        })),
        rows,
        next: shown < n ? encodeExecutionsCursor(frozen.id, shown) : null,
      },
    ),
    headers: { Location: `/api/v1/requests/${frozen.id}` },
    keep: true,
  };
}

/** Rows paying an address Rampart never paid on this chain (one read per row, sent together). */
async function newDestinationRefusal(
  deps: ApiDeps,
  key: ApiKey,
  chain: string,
  rows: readonly BatchRow[],
): Promise<ProblemAnswer | undefined> {
  const known = await Promise.all(rows.map((r) => deps.store.knownPayee(chain, r.destination)));
  const fresh = rows.filter((_, i) => !newDestinationRule(key.limits, known[i] === true).ok);
  if (fresh.length === 0) return undefined;
  return problem(
    403,
    'new_destination_not_allowed',
    `API key ${key.name} may pay only addresses Rampart has paid before, and ${rowList(fresh.map((r) => r.row))} ${fresh.length === 1 ? 'pays' : 'pay'} a new one; request those in Slack, or use a key created with --allow-new-destinations.`,
    {
      errors: fresh.map((r) => ({
        pointer: rowPointer({ row: r.row, column: 'receiver', message: '' }),
        detail: 'Rampart has never paid this address.',
      })),
    },
  );
}

export async function createBatch(deps: ApiDeps, key: ApiKey, value: unknown, submission: string): Promise<Answer> {
  const checked = checkBatchBody(value, deps.config.wallets, deps.config.batch.maxRows);
  if (!checked.ok)
    return refused(fieldProblem(checked.errors, checked.onlyWallet ? 'unknown_wallet' : 'invalid_field'), true);
  const { body, wallet, asset, rows } = checked;
  const total = { units: rows.reduce((sum, r) => sum + r.amount.units, 0n), decimals: asset.decimals };
  const limit = keyLimitRefusal(key, { wallet: wallet.alias, asset: asset.id, amount: amountToString(total) });
  if (limit) {
    // The key's --max-amount bounds the batch's total: a batch is one request.
    const pointer = limit.field === 'amount' ? '/rows' : `/${limit.field}`;
    const message =
      limit.field === 'amount'
        ? `This batch's total, ${amountToString(total)}, is over what API key ${key.name} may request at once (${key.limits.maxAmount ?? ''}); split the batch or ask an approver to request it in Slack.`
        : limit.message;
    const errors = limit.field ? { errors: [{ pointer, detail: message }] } : {};
    return refused(problem(403, limit.code, message, errors), limit.field !== undefined);
  }
  const transient =
    (await frozenRefusal(deps)) ??
    (body.kind === 'transfers' && !key.limits.allowNewDestinations
      ? await newDestinationRefusal(deps, key, asset.chain, rows)
      : undefined);
  if (transient) return refused(transient, false);
  return submitChecked(deps, key, body, submission);
}

async function submitChecked(deps: ApiDeps, key: ApiKey, body: BatchBody, submission: string): Promise<Answer> {
  const outcome = await checkBatch(
    { ...deps, withinBudget: (work) => withDeadline(work, deps.checkBudgetMs) },
    { kind: body.kind, wallet: body.wallet, asset: body.asset, rows: body.cells },
  );
  if (outcome.kind === 'unchecked') {
    deps.log.warn({ err: outcome.error, apiKey: key.name }, 'API batch not checked: the wallet service failed');
    return refused(SERVICE_UNAVAILABLE, false);
  }
  if (outcome.kind === 'invalid') {
    // The balance, the velocity limits or the beneficiary registry said no: true now, perhaps not later.
    const errors = [
      ...outcome.fileErrors.map((detail) => ({ pointer: '/rows', detail })),
      ...outcome.rowErrors.map((e) => ({ pointer: rowPointer(e), detail: e.message })),
    ];
    return refused(fieldProblem(errors, 'invalid_field', 422), false);
  }
  const policy = batchPolicy(deps.config, outcome);
  if (!policy.ok) {
    const detail = `This batch cannot be approved: ${policy.reason}.`;
    return refused(fieldProblem([{ pointer: '/rows', detail }], 'policy_refused', 422), false);
  }
  const via = { keyId: key.id, keyName: key.name, owner: key.owner, maxOpen: key.limits.maxOpen };
  const submitted = await submitBatch(deps, {
    checked: outcome,
    requester: key.owner,
    reason: body.reason?.trim() || `batch via API key ${key.name}`,
    origin: undefined,
    submission,
    fileName: `JSON rows from API key ${key.name}`,
    via,
  });
  switch (submitted.kind) {
    case 'created': {
      await deps.keys.recordRequest(key.owner, submitted.frozen.id, submitted.frozen.createdAt);
      await announce(deps, submitted.frozen);
      return createdBatchAnswer(submitted.frozen, batchRows(outcome));
    }
    case 'taken':
      return recoverBatch(deps, key, submitted.id);
    case 'refused':
      // The policy passed above, so this is the key's --max-open or the owner's MAX_OPEN_PER_REQUESTER (transient).
      return refused(problem(403, 'too_many_open', submitted.reason), false);
    case 'nothing':
      return refused(NOT_SUBMITTED, false);
  }
}

/** A batch created whose answer was lost: answered again from the stored batch; its card follows once. */
export async function recoverBatch(deps: ApiDeps, key: ApiKey, requestId: string): Promise<Answer> {
  const [record, rows] = await Promise.all([deps.store.get(requestId), deps.store.batches.rows(requestId)]);
  if (!record) throw new Error(`batch ${requestId} holds a claim but has no record`);
  await deps.keys.recordRequest(key.owner, requestId, record.frozen.createdAt);
  if (record.state === 'pending') await announce(deps, record.frozen);
  return createdBatchAnswer(record.frozen, rows);
}
