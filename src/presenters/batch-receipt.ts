/**
 * A batch's receipt: the CSV posted in its card's thread and printed by
 * `rampart batch receipt`, from one builder, with the total moved for the summary and the CLI.
 */
import type { BatchRowOutcome } from '../app/notifier.js';
import { type Amount, parseAmount } from '../domain/amount.js';
import { assetDecimals, succeededTotal } from '../domain/batch-money.js';
import { receiptCsv } from '../domain/batch-receipt.js';
import type { RequestRecord } from '../domain/request.js';
import { outcomeMessage } from './describe-error.js';

const decimalsOf = (record: RequestRecord): number =>
  assetDecimals((record.sealed.call.body as { asset?: string }).asset);

/** A row without a recorded outcome says why it was not sent: a cancelled row was stopped with its batch. */
const notSentWhy = (state: BatchRowOutcome['state']): string | undefined =>
  state === 'cancelled' ? 'not sent: the batch was stopped before this row ran' : undefined;

/** The total moved (succeeded rows) and the receipt CSV: the thread's, and `rampart batch receipt`'s. */
export function batchReceipt(record: RequestRecord, rows: readonly BatchRowOutcome[]): { moved: Amount; csv: string } {
  const kind = record.sealed.display.batch?.kind ?? 'transfers';
  const decimals = decimalsOf(record);
  const amount = (r: BatchRowOutcome): Amount => parseAmount(r.amount, decimals);
  const csv = receiptCsv(
    kind,
    rows.map((r) => ({
      row: r.row,
      destination: r.destination,
      amount: amount(r),
      reference: r.reference,
      state: r.state,
      proof: r.outcome?.hash ?? r.outcome?.reference ?? r.outcome?.id,
      error: r.state === 'succeeded' ? undefined : (outcomeMessage(r.outcome) ?? notSentWhy(r.state)),
    })),
  );
  return { moved: succeededTotal(rows, decimals), csv };
}
