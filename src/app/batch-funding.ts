/**
 * Issue 20 "Funding": when a batch takes its wallet's turn, and on resume, Rampart reads the
 * balance; if the remaining rows need more than is available the batch pauses and sends
 * nothing. The start script asks for this check ('funding') and refuses every row until the
 * batch is marked funded (store/batch-lua.ts), so a single request that emptied the wallet in
 * between is noticed before any row is sent.
 */
import { type Amount, amountFromNumber, formatAmount, parseAmount } from '../domain/amount.js';
import { velocitySubject } from '../domain/velocity.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { RequestStore } from '../store/requests.js';

export interface FundingDeps {
  service: Pick<ServiceClient, 'getBalances'>;
  store: RequestStore;
  log: Logger;
}

/** 'funded': rows may start; 'paused': not enough (nothing sent); 'unchecked': try again later. */
export type FundingResult = 'funded' | 'paused' | 'unchecked';

const PAGE = 500;

/** "ops holds 41,200 USDC; the remaining 212 rows need 52,000 — fund it and resume, or stop". */
export const fundingSentence = (wallet: string, available: Amount, code: string, rows: number, need: Amount): string =>
  `${wallet} holds ${formatAmount(available, 0)} ${code}; the remaining ${rows} row${rows === 1 ? '' : 's'} need${rows === 1 ? 's' : ''} ${formatAmount(need, 0)} — fund it and resume, or stop`;

export async function checkFunding(deps: FundingDeps, approvalId: string): Promise<FundingResult> {
  const record = await deps.store.get(approvalId);
  const subject = record ? velocitySubject(record.frozen) : undefined;
  const body = record?.frozen.call.body as { asset?: string } | undefined;
  if (!record || !subject || !body?.asset) return 'unchecked';
  const rows = await deps.store.batches.rows(approvalId);
  let need = 0n;
  let remaining = 0;
  for (let offset = 0; offset < record.executionCount; offset += PAGE)
    for (const e of await deps.store.executions.page(approvalId, offset, PAGE, record.executionCount)) {
      const row = rows[Number(e.id.slice(e.id.lastIndexOf('.') + 1)) - 1];
      if (e.state !== 'queued' || !row) continue;
      need += parseAmount(row.amount, subject.decimals).units;
      remaining += 1;
    }
  let available: Amount;
  try {
    const balances = await deps.service.getBalances(subject.walletId);
    const entry = balances.find((b) => b.id === body.asset);
    available = amountFromNumber(entry?.available ?? 0, subject.decimals);
  } catch (err) {
    deps.log.warn({ err, requestId: approvalId }, 'batch funding check: could not read the balance; nothing sent');
    return 'unchecked';
  }
  if (need > available.units) {
    const why = fundingSentence(subject.walletAlias, available, subject.code, remaining, {
      units: need,
      decimals: subject.decimals,
    });
    const moved = await deps.store.batches.pause(approvalId, why);
    if (moved.ok) deps.log.warn({ requestId: approvalId }, 'batch paused: the wallet cannot fund the remaining rows');
    return 'paused';
  }
  return (await deps.store.batches.markFunded(approvalId)).ok ? 'funded' : 'unchecked';
}
