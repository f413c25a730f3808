/**
 * When a batch takes its wallet's turn, and on resume, Rampart reads the
 * balance; if the remaining rows need more than is available the batch pauses and sends
 * nothing. The start script asks for this check ('funding') and refuses every row until the
 * batch is marked funded (store/lua/includes/batch.lua), so a single request that emptied the wallet in
 * between is noticed before any row is sent.
 */
import { type Amount, amountFromNumber, formatAmount } from '../domain/amount.js';
import type { RequestRecord } from '../domain/request.js';
import { velocitySubject } from '../domain/velocity.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { RequestStore } from '../store/requests.js';
import { unsentRows } from './batch-unsent.js';

export interface FundingDeps {
  service: Pick<ServiceClient, 'getBalances'>;
  store: RequestStore;
  log: Logger;
}

/** 'funded': rows may start; 'paused': not enough (nothing sent); 'unchecked': try again later. */
export type FundingResult = 'funded' | 'paused' | 'unchecked';

/** "ops holds 0.00 cNGN; the remaining 7 rows need 350,000.00 cNGN" (amounts like totals, never rounded). */
export const shortfallSentence = (
  wallet: string,
  available: Amount,
  code: string,
  rows: number,
  need: Amount,
): string =>
  `${wallet} holds ${formatAmount(available)} ${code}; the remaining ${rows} row${rows === 1 ? '' : 's'} need${rows === 1 ? 's' : ''} ${formatAmount(need)} ${code}`;

export type Shortfall = { kind: 'enough' } | { kind: 'short'; sentence: string } | { kind: 'unchecked' };

/**
 * Whether the wallet holds what the batch's unsent rows still need (app/batch-unsent.ts). While a
 * batch holds its wallet's turn (running or paused) no other batch of the wallet runs, so its
 * own rows are what the balance must cover.
 */
export async function fundingShortfall(deps: FundingDeps, record: RequestRecord): Promise<Shortfall> {
  const subject = velocitySubject(record.sealed);
  const asset = (record.sealed.call.body as { asset?: string }).asset;
  const unsent = subject && asset ? await unsentRows(deps.store, record) : undefined;
  if (!subject || !asset || !unsent) return { kind: 'unchecked' };
  let available: Amount;
  try {
    const balances = await deps.service.getBalances(subject.walletId);
    available = amountFromNumber(balances.find((b) => b.id === asset)?.available ?? 0, subject.decimals);
  } catch (err) {
    deps.log.warn({ err, requestId: record.sealed.id }, 'batch funding check: could not read the balance');
    return { kind: 'unchecked' };
  }
  if (unsent.need.units <= available.units) return { kind: 'enough' };
  return {
    kind: 'short',
    sentence: shortfallSentence(subject.walletAlias, available, unsent.code, unsent.rows, unsent.need),
  };
}

export async function checkFunding(deps: FundingDeps, approvalId: string): Promise<FundingResult> {
  const record = await deps.store.get(approvalId);
  if (!record) return 'unchecked';
  const found = await fundingShortfall(deps, record);
  if (found.kind === 'unchecked') return 'unchecked'; // nothing sent; tried again later
  if (found.kind === 'short') {
    // The pause reason the card and the thread show: the shortfall and what to do.
    const moved = await deps.store.batches.pause(approvalId, `${found.sentence} — fund it and resume, or stop`);
    if (moved.ok) deps.log.warn({ requestId: approvalId }, 'batch paused: the wallet cannot fund the remaining rows');
    return 'paused';
  }
  return (await deps.store.batches.markFunded(approvalId)).ok ? 'funded' : 'unchecked';
}
