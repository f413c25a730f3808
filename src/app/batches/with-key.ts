/**
 * A batch requested with an API key: ONE approval `B-<n>` through the same use cases as a /batch
 * upload (checkBatch with rows, the batch policy, submitBatch). The key's limits apply to the
 * batch as one request (domain/api-rules.ts batchKeyLimitRefusal): its wallets and assets,
 * --max-amount on the total, --max-open counting the batch once, and no destination Rampart never
 * paid unless --allow-new-destinations.
 */
import type { KeyRefusal } from '../../domain/api-key.js';
import { batchKeyLimitRefusal, freezeOutcome, type KeyActor, newDestinationOutcome } from '../../domain/api-rules.js';
import type { Asset } from '../../domain/assets.js';
import type { BatchRowRecord } from '../../domain/batch-approval.js';
import type { BatchKind } from '../../domain/batch-cells.js';
import type { BatchCells, BatchRow, RowError } from '../../domain/batch-file.js';
import type { SealedRequest } from '../../domain/request.js';
import type { ScreeningRefusal } from '../../domain/rules/screening.js';
import type { WalletAlias } from '../../domain/wallets.js';
import { apiPortsOf } from '../api-keys/ports.js';
import { checkBatch } from '../check-batch.js';
import { withDeadline } from '../deadline.js';
import type { FacadeDeps } from '../facade-deps.js';
import { viaKey } from '../payments/with-key.js';
import { announce } from '../post-request.js';
import { batchPolicy, batchRows, submitBatch } from '../submit-batch.js';

export interface KeyBatch {
  kind: BatchKind;
  /** As the body named them, and as they read. */
  walletName: string;
  assetName: string;
  wallet: WalletAlias;
  asset: Asset;
  cells: BatchCells[];
  rows: BatchRow[];
  reason: string | undefined;
  submission: string;
}

export type KeyBatchOutcome =
  | { kind: 'key_limit'; refusal: KeyRefusal }
  | { kind: 'frozen'; code: 'frozen'; message: string }
  | { kind: 'new_destination'; rows: number[]; message: string; detail: string }
  | { kind: 'unchecked' }
  /** The balance, the velocity limits or the beneficiary registry said no: true now, perhaps not later. */
  | { kind: 'invalid'; fileErrors: string[]; rowErrors: RowError[]; screening?: ScreeningRefusal }
  | { kind: 'policy_refused'; reason: string }
  /** The key's --max-open or the owner's MAX_OPEN_PER_REQUESTER. */
  | { kind: 'too_many_open'; message: string }
  | { kind: 'nothing' }
  | { kind: 'created'; sealed: SealedRequest; rows: BatchRowRecord[] };

export async function submitBatchWithKey(deps: FacadeDeps, actor: KeyActor, b: KeyBatch): Promise<KeyBatchOutcome> {
  const key = actor.apiKey;
  const total = { units: b.rows.reduce((sum, r) => sum + r.amount.units, 0n), decimals: b.asset.decimals };
  const limit = batchKeyLimitRefusal(key, { wallet: b.wallet.alias, asset: b.asset.id, total });
  if (limit) return { kind: 'key_limit', refusal: limit };
  const frozen = freezeOutcome(await deps.controls.freeze());
  if (!frozen.ok) return { kind: 'frozen', code: frozen.code, message: frozen.message };
  if (b.kind === 'transfers' && !key.limits.allowNewDestinations) {
    // One read per row, sent together.
    const known = await Promise.all(b.rows.map((r) => deps.store.knownPayee(b.asset.chain, r.destination)));
    const fresh = newDestinationOutcome(
      key,
      b.rows.map((r, i) => ({ row: r.row, known: known[i] === true })),
    );
    if (!fresh.ok) return { kind: 'new_destination', rows: fresh.rows, message: fresh.message, detail: fresh.detail };
  }
  const checked = await checkBatch(
    { ...deps, withinBudget: (work) => withDeadline(work, apiPortsOf(deps).checkBudgetMs) },
    { kind: b.kind, wallet: b.walletName, asset: b.assetName, rows: b.cells },
  );
  if (checked.kind === 'unchecked') {
    deps.log.warn({ err: checked.error, apiKey: key.name }, 'API batch not checked: the wallet service failed');
    return { kind: 'unchecked' };
  }
  if (checked.kind === 'invalid') return checked;
  const policy = batchPolicy(deps.config, checked);
  if (!policy.ok) return { kind: 'policy_refused', reason: policy.reason };
  const submitted = await submitBatch(deps, {
    checked,
    requester: key.owner,
    reason: b.reason?.trim() || `batch via API key ${key.name}`,
    origin: undefined,
    submission: b.submission,
    fileName: `JSON rows from API key ${key.name}`,
    via: viaKey(actor),
  });
  switch (submitted.kind) {
    case 'created':
      await deps.apiKeys.recordRequest(key.owner, submitted.sealed.id, submitted.sealed.createdAt);
      await announce(deps, submitted.sealed);
      return { kind: 'created', sealed: submitted.sealed, rows: batchRows(checked) };
    case 'taken':
      return recoverBatchWithKey(deps, actor, submitted.id);
    case 'refused':
      // The policy passed above, so this is an open-request cap (transient).
      return { kind: 'too_many_open', message: submitted.reason };
    case 'nothing':
      return submitted;
  }
}

/** A batch created whose answer was lost: read again from the stored batch; its card follows once. */
export async function recoverBatchWithKey(
  deps: FacadeDeps,
  actor: KeyActor,
  requestId: string,
): Promise<{ kind: 'created'; sealed: SealedRequest; rows: BatchRowRecord[] }> {
  const key = actor.apiKey;
  const [record, rows] = await Promise.all([deps.store.get(requestId), deps.store.batches.rows(requestId)]);
  if (!record) throw new Error(`batch ${requestId} holds a claim but has no record`);
  await deps.apiKeys.recordRequest(key.owner, requestId, record.sealed.createdAt);
  if (record.state === 'pending') await announce(deps, record.sealed);
  return { kind: 'created', sealed: record.sealed, rows };
}
