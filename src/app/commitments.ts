/**
 * What a pending payment's card shows as already promised from its wallet and asset: every
 * other approved payment not yet sent (a batch's queued rows, a single waiting for its turn), and
 * the balance left once they and this one are paid. Read when the card is drawn; a balance that
 * cannot be read leaves that figure out rather than guessing it.
 */
import { amountFromNumber, parseAmount } from '../domain/amount.js';
import type { ApprovalState } from '../domain/approval.js';
import { type AssetId, assetInfo, parseAssetId } from '../domain/assets.js';
import { availableAfterCommitments, type CardCommitments, type Commitment } from '../domain/commitments.js';
import type { RequestRecord } from '../domain/request.js';
import { isBatchRecord } from '../domain/request.js';
import { velocitySubject } from '../domain/velocity.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { RequestStore } from '../store/requests.js';

export interface CommitmentDeps {
  store: RequestStore;
  service: Pick<ServiceClient, 'getBalances'>;
  log: Logger;
}

const STATUS: Partial<Record<ApprovalState, Commitment['status']>> = {
  approved: 'waiting',
  running: 'running',
  paused: 'paused',
};

const PAGE = 500;
const assetOf = (r: RequestRecord): string | undefined => (r.sealed.call.body as { asset?: string }).asset;

/** What an approved, unsent approval still needs: its queued rows (a batch) or its amount (a single). */
async function stillNeeds(store: RequestStore, r: RequestRecord, decimals: number): Promise<bigint> {
  const batch = r.shape === 'batch';
  if (!batch) return r.state === 'approved' ? (velocitySubject(r.sealed)?.units ?? 0n) : 0n;
  const rows = await store.batches.rows(r.sealed.id);
  let need = 0n;
  for (let offset = 0; offset < r.executionCount; offset += PAGE)
    for (const e of await store.executions.page(r.sealed.id, offset, PAGE, r.executionCount)) {
      const row = rows[Number(e.id.slice(e.id.lastIndexOf('.') + 1)) - 1];
      if (e.state === 'queued' && row) need += parseAmount(row.amount, decimals).units;
    }
  return need;
}

/**
 * What approved payments not yet sent still need from one wallet's asset (every decided open
 * approval but `except`): the card's list, and what a series' run is checked against before it
 * is created. Only decided approvals can be committed: pending ones, however many, are never read.
 */
export async function commitmentsOn(
  store: RequestStore,
  on: { walletId: string; asset: string; decimals: number },
  except?: string,
): Promise<Commitment[]> {
  // Read side by side, not one after another: a run's checks wait on this before it is created.
  // Live series stay open but commit nothing themselves: left out before any record is read.
  const ids = (await store.withoutSeries(await store.decidedOpenIds())).filter((id) => id !== except).sort();
  const found = await Promise.all(
    ids.map(async (id): Promise<Commitment | undefined> => {
      const other = await store.get(id);
      const status = other ? STATUS[other.approvalState] : undefined;
      if (!other || !status || assetOf(other) !== on.asset) return undefined;
      if ((other.sealed.call.body as { wallet_id?: string }).wallet_id !== on.walletId) return undefined;
      const units = await stillNeeds(store, other, on.decimals);
      return units > 0n ? { id, units, status } : undefined;
    }),
  );
  return found.filter((c): c is Commitment => c !== undefined);
}

export async function cardCommitments(
  deps: CommitmentDeps,
  record: RequestRecord,
): Promise<CardCommitments | undefined> {
  const subject = velocitySubject(record.sealed);
  const asset = assetOf(record);
  if (record.state !== 'pending' || isBatchRecord(record) || !subject || !asset) return undefined;
  const code = parseAssetId(asset) ? assetInfo(asset as AssetId).code : asset;
  const items = await commitmentsOn(
    deps.store,
    { walletId: subject.walletId, asset, decimals: subject.decimals },
    record.sealed.id,
  );
  if (items.length === 0) return { items, decimals: subject.decimals, code };
  try {
    const entry = (await deps.service.getBalances(subject.walletId)).find((b) => b.id === asset);
    const available = amountFromNumber(entry?.available ?? 0, subject.decimals).units;
    return {
      items,
      decimals: subject.decimals,
      code,
      availableAfter: availableAfterCommitments(available, subject.units, items),
    };
  } catch (err) {
    deps.log.warn({ err, requestId: record.sealed.id }, 'card commitments: could not read the balance');
    return { items, decimals: subject.decimals, code };
  }
}
