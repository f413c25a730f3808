/**
 * What a crash-settled execution's move to `unknown` needs so its
 * reservation is re-stamped with its start time (and keeps counting only from then) — the
 * ledger keys and, for a batch's row, its own units. Read only on this rare path (a worker died).
 */
import { parseAmount } from '../domain/amount.js';
import { parseExecutionId } from '../domain/approval.js';
import { velocitySubject } from '../domain/velocity.js';
import type { ControlStore } from '../store/controls.js';
import type { FinishOptions } from '../store/executions.js';
import type { RequestStore } from '../store/requests.js';

export async function unknownFinishKeys(
  deps: { store: RequestStore; controls?: ControlStore | undefined },
  executionId: string,
): Promise<FinishOptions> {
  if (!deps.controls) return {};
  const parsed = parseExecutionId(executionId);
  const record = parsed ? await deps.store.get(parsed.approvalId) : undefined;
  const subject = record ? velocitySubject(record.sealed) : undefined;
  if (!parsed || !subject) return {};
  const keys = { ledger: deps.controls.ledgerKey(subject), amounts: deps.controls.amountsKey(subject) };
  if (record?.shape !== 'batch') return { release: keys };
  const row = (await deps.store.batches.rows(parsed.approvalId))[parsed.n - 1];
  if (!row) return {};
  return { batch: { giveBack: { ...keys, units: parseAmount(row.amount, subject.decimals).units } } };
}
