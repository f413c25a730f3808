/**
 * Request again: once a batch is final, its requester may ask for the
 * rows that ended `failed` or `cancelled` — never `unknown`, which may have been paid — as a NEW
 * batch. The rows come from the stored rows as approved (store/batches.ts), written back as a
 * batch file and re-checked by the same checkBatch as an upload, against today's registry,
 * balance and limits; submitBatch then creates it like any /batch file. One batch may be
 * requested again once (a second new batch of the same rows would pay them twice if both ran).
 */
import type { BatchRowRecord } from '../domain/batch-approval.js';
import type { BatchKind } from '../domain/batch-cells.js';
import { csvLine } from '../domain/csv-safe.js';
import type { RequestRecord } from '../domain/request.js';
import { isScreeningOutcome } from '../domain/rules/screening.js';
import { type CheckBatchDeps, type CheckBatchOutcome, checkBatch } from './check-batch.js';
import type { AppDeps } from './deps.js';
import { type SubmitBatchOutcome, submitBatch } from './submit-batch.js';

const PAGE = 500;
/** The source batch's mark: the confirmation form (its view id) that became its new batch. */
const MARK = 'again';
const AGAIN_STATES = new Set(['failed', 'cancelled']);

export interface AgainRow extends BatchRowRecord {
  /** The row's final state in the source batch. */
  state: 'failed' | 'cancelled';
}

export type AgainRowsOutcome =
  | { kind: 'missing' }
  | { kind: 'not-requester'; requestId: string; requester: string }
  /** The batch is not final yet: its rows may still run. */
  | { kind: 'not-done'; requestId: string; state: string }
  | { kind: 'none'; requestId: string }
  /** Already requested again: `newId` when that form became a batch. */
  | { kind: 'already'; requestId: string; newId: string | undefined }
  | { kind: 'rows'; source: RequestRecord; batchKind: BatchKind; rows: AgainRow[] };

type ReadDeps = Pick<AppDeps, 'store'>;

/** The source batch's failed and cancelled rows, for its requester only, once it is final. */
export async function againRows(deps: ReadDeps, requestId: string, user: string): Promise<AgainRowsOutcome> {
  const source = await deps.store.get(requestId);
  const batchKind = source?.sealed.display.batch?.kind;
  if (source?.shape !== 'batch' || !batchKind) return { kind: 'missing' };
  if (source.sealed.requester !== user) return { kind: 'not-requester', requestId, requester: source.sealed.requester };
  if (source.approvalState !== 'done') return { kind: 'not-done', requestId, state: source.approvalState };
  const form = await deps.store.postedAt(requestId, MARK);
  if (form !== undefined) return { kind: 'already', requestId, newId: await deps.store.submittedAs(form) };
  const stored = await deps.store.batches.rows(requestId);
  const rows: AgainRow[] = [];
  for (let offset = 0; offset < source.executionCount; offset += PAGE) {
    const page = await deps.store.executions.page(requestId, offset, PAGE, source.executionCount);
    page.forEach((e, i) => {
      const row = stored[offset + i];
      // A row screening cancelled at its start is never offered again (its address is listed).
      if (row && AGAIN_STATES.has(e.state) && !isScreeningOutcome(e.outcome))
        rows.push({ ...row, state: e.state as AgainRow['state'] });
    });
  }
  return rows.length === 0 ? { kind: 'none', requestId } : { kind: 'rows', source, batchKind, rows };
}

/** The rows as a batch file of their kind: the beneficiary column holds the resolved id. */
export function againFile(kind: BatchKind, rows: readonly BatchRowRecord[]): Uint8Array {
  const lines = [csvLine([kind === 'transfers' ? 'receiver' : 'beneficiary', 'amount', 'reference'])];
  for (const r of rows) lines.push(csvLine([r.destination, r.amount, r.reference ?? '']));
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

export const againFileName = (requestId: string): string => `${requestId}-again.csv`;

/** The new batch's row n (the header is row 1) is the source's row `rows[n - 2].row`. */
export const sourceRow = (rows: readonly AgainRow[], newRow: number): number | undefined => rows[newRow - 2]?.row;

/** The same checks as an upload (checkBatch), on the same wallet and asset as the source batch. */
export async function checkAgain(
  deps: CheckBatchDeps,
  again: Extract<AgainRowsOutcome, { kind: 'rows' }>,
): Promise<CheckBatchOutcome> {
  const body = again.source.sealed.call.body as { wallet_id?: string; asset?: string };
  return checkBatch(deps, {
    kind: again.batchKind,
    wallet: body.wallet_id ?? again.source.sealed.display.walletAlias ?? '',
    asset: body.asset ?? '',
    bytes: againFile(again.batchKind, again.rows),
  });
}

export type SubmitAgainOutcome =
  | Exclude<AgainRowsOutcome, { kind: 'rows' }>
  | { kind: 'invalid'; check: Exclude<CheckBatchOutcome, { kind: 'checked' }>; rows: AgainRow[] }
  | SubmitBatchOutcome;

export interface SubmitAgain {
  requestId: string;
  user: string;
  /** The confirmation form's view id: one form makes at most one batch. */
  submission: string;
  origin: string | undefined;
}

/**
 * Re-reads and re-checks the rows (the balance may have moved since the form was shown), claims
 * the source batch's one request-again, and creates the new batch. A refused or failed create
 * gives the claim back.
 */
export async function submitAgain(
  deps: CheckBatchDeps & Pick<AppDeps, 'store' | 'now' | 'config' | 'log'>,
  s: SubmitAgain,
): Promise<SubmitAgainOutcome> {
  const again = await againRows(deps, s.requestId, s.user);
  if (again.kind !== 'rows') return again;
  const checked = await checkAgain(deps, again);
  if (checked.kind !== 'checked') return { kind: 'invalid', check: checked, rows: again.rows };
  if (!(await deps.store.markPosted(s.requestId, MARK, s.submission))) {
    const form = await deps.store.postedAt(s.requestId, MARK);
    return { kind: 'already', requestId: s.requestId, newId: form ? await deps.store.submittedAs(form) : undefined };
  }
  let outcome: SubmitBatchOutcome;
  try {
    outcome = await submitBatch(deps, {
      checked,
      requester: s.user,
      reason: `again: the failed and cancelled rows of ${s.requestId} (${again.source.sealed.reason})`.slice(0, 500),
      origin: s.origin,
      submission: s.submission,
      fileName: againFileName(s.requestId),
    });
  } catch (err) {
    deps.log.error({ err, requestId: s.requestId }, 'a batch requested again could not be stored');
    outcome = { kind: 'nothing' };
  }
  // A form that became a batch keeps the mark; otherwise the requester may try again. When it
  // is unclear whether the create ran, the mark stays (safe side: never two new batches).
  if (outcome.kind === 'refused' || (outcome.kind === 'nothing' && !(await createdBy(deps, s.submission))))
    await deps.store.clearPosted(s.requestId, MARK);
  if (outcome.kind === 'created')
    deps.log.info({ requestId: s.requestId, newId: outcome.sealed.id }, 'batch rows requested again');
  return outcome;
}

/** Whether the form became a batch; true when that cannot be read. */
async function createdBy(deps: Pick<AppDeps, 'store'>, submission: string): Promise<boolean> {
  try {
    return (await deps.store.submittedAs(submission)) !== undefined;
  } catch {
    return true;
  }
}
