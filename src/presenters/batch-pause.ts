/**
 * The thread reply posted when a batch pauses: it mentions the requester and the approvers,
 * names the rows and the reason, and gives the advice that fits the reason (fund and Resume,
 * check an unknown row first, check Redis), with what is still unsent. Pure.
 */
import type { BatchRowOutcome } from '../app/notifier.js';
import { type Amount, formatAmount } from '../domain/amount.js';
import { pauseKind, rowWords } from '../domain/batch-status.js';
import type { RequestRecord } from '../domain/request.js';
import { plural } from '../domain/words.js';
import { outcomeMessage } from './describe-error.js';

export interface PauseFacts {
  record: RequestRecord;
  /** Every row with its state and outcome, in row order. */
  rows: readonly BatchRowOutcome[];
  /** The rows not yet sent and what they need. */
  unsent: { rows: number; need: Amount };
  /** APPROVERS: user ids (U…) and user groups (S…). */
  approvers: readonly string[];
}

const mention = (a: string) => (a.startsWith('S') ? `<!subteam^${a}>` : `<@${a}>`);

const capital = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/** The failures that paused it: the last `n` failed rows ("3 rows in a row failed"). */
function lastFailures(f: PauseFacts): BatchRowOutcome[] {
  const n = Number(/(\d+) rows? in a row failed/.exec(f.record.pauseReason ?? '')?.[1] ?? '1');
  return f.rows.filter((r) => r.state === 'failed').slice(-n);
}

/** The service's own words on a failed row, or Rampart's, as one sentence. */
const said = (r: BatchRowOutcome | undefined): string => outcomeMessage(r?.outcome) ?? 'no reason was recorded.';

/** What happened and what to do, by the reason it paused. */
function reasonAndAdvice(f: PauseFacts, wallet: string): string {
  const { record } = f;
  switch (pauseKind(record)) {
    case 'unknown': {
      const rows = rowWords(f.rows.filter((r) => r.state === 'unknown').map((r) => r.row));
      return `The outcome of ${rows} is UNKNOWN: it may or may not have been paid, and it is never sent again. Check ${rows} with the service first, then press *Record outcome* on the card; *Resume* runs the rows after it, or *Stop* cancels them.`;
    }
    case 'funding':
      // Starts with the wallet's name, written as configured (never capitalised).
      return `${(record.pauseReason ?? '').replace(/ — fund it and resume, or stop$/, '')}. Fund ${wallet} and *Resume*, or *Stop*.`;
    case 'failures': {
      const failed = lastFailures(f);
      const why = said(failed.at(-1));
      const funding = /insufficient|balance/i.test(why);
      const advice = funding
        ? `Fund ${wallet} and *Resume*, or *Stop*.`
        : `Check why, then *Resume* to run the rows after them, or *Stop*.`;
      return `${capital(rowWords(failed.map((r) => r.row)))} failed: ${why} ${advice}`;
    }
    case 'redis':
      return 'No Redis replica acknowledged a row’s start, so that row was not sent. Check Redis (replication, REDIS_WAIT_MS), then *Resume*, or *Stop*.';
    default:
      return `${capital(record.pauseReason ?? 'Rampart paused it')}. *Resume* or *Stop*.`;
  }
}

/** "<@riley> <@amara> B-1003 is paused (13 of 20 rows run). Rows 12, 13 and 14 failed: … (7 rows, 350,000.00 cNGN unsent)". */
export function pauseNoticeText(f: PauseFacts): string {
  const { record, unsent } = f;
  const fr = record.sealed;
  const who = [fr.requester, ...f.approvers.filter((a) => a !== fr.requester)].map(mention).join(' ');
  const wallet = fr.display.walletAlias ?? '';
  const c = record.counts;
  const ran = `${c.succeeded + c.failed + c.unknown} of ${record.executionCount} rows run`;
  const left =
    unsent.rows > 0
      ? ` (${plural(unsent.rows, 'row')}, ${formatAmount(unsent.need)} ${fr.display.assetCode ?? ''} unsent)`
      : '';
  const resumer = ' Resume is for an approver other than the requester; anyone may Stop.';
  return `:double_vertical_bar: ${who} *${fr.id} is paused* (${ran}). ${reasonAndAdvice(f, wallet).replace(/\.$/, '')}${left}.${resumer}`;
}
