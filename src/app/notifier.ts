/**
 * How the use cases and workers talk to people: a port that slack/ implements (slack/notifier.ts), so app/ and queue/
 * never imports slack/. The notice use cases (app/notices/) decide what is
 * posted once; the notifier only delivers.
 */
import type { Amount } from '../domain/amount.js';
import type { ExecutionState } from '../domain/approval.js';
import type { BatchRowRecord } from '../domain/batch-approval.js';
import type { ExecutionRecord, RequestOutcome, RequestRecord } from '../domain/request.js';
import type { SeriesReply } from '../presenters/series-thread.js';

export interface CardRef {
  channel: string;
  ts: string;
}

export interface Notifier {
  /** Posts the card in the approvals channel, marked with the request id (findCard). */
  postCard(record: RequestRecord): Promise<CardRef>;
  /**
   * The card of this request posted since `sinceMs`, if any: a post whose answer was lost (or
   * whose recording failed) is found here instead of being posted twice.
   */
  findCard(record: RequestRecord, sinceMs: number): Promise<CardRef | undefined>;
  /** Redraws the card for the record's current state. */
  updateCard(record: RequestRecord, card: CardRef): Promise<void>;
  /** The final state's reply in the card's thread; returns its ts. */
  postOutcome(record: RequestRecord, card: CardRef): Promise<string>;
  /** A try was not sent (no Redis replica confirmed its start) and will be tried again. */
  postNotSent(record: RequestRecord, card: CardRef): Promise<void>;
  /**
   * The start script cancelled an execution whose destination screening refused: a reply under
   * the card to the approvers and SCREENING_NOTIFY, naming the list and its date only (`why`).
   */
  postScreened?(card: CardRef, executionId: string, why: string): Promise<void>;
  /**
   * A series' thread is told what happened to it: runs skipped (a person skipped each, or Rampart
   * for a reason: its wallet could not cover it), or it ended (who, and the run it cancelled
   * unsent): one reply (presenters/series-thread.ts).
   */
  postSeriesReply?(card: CardRef, reply: SeriesReply): Promise<void>;
  /**
   * The notice before a series' run in its thread: `text` ("Next run tomorrow 09:00: 1,200.00
   * USDC to …", the destination as the card names it added by the adapter through `to`) and a
   * Skip button for run `k`.
   */
  postRunNotice?(record: RequestRecord, card: CardRef, run: { k: number; when: string }): Promise<void>;
  /** A not-paid proposal waits on this execution: the thread mentions the approvers who could confirm. */
  postProposal(record: RequestRecord, card: CardRef, execution: ExecutionRecord): Promise<void>;
  /** The ts of this state's reply if an earlier attempt posted it (marked like the card). */
  findOutcome(record: RequestRecord, card: CardRef): Promise<string | undefined>;
  /** Tells the requester, privately, that the card is up. Best effort. */
  confirmPosted(record: RequestRecord, card: CardRef): Promise<void>;
  /** Tells the requester, privately, why the card cannot be posted (an admin must act). */
  cardUnpostable(record: RequestRecord, problem: string): Promise<void>;
  // Direct messages.
  /** Reminds one approver who has not voted, with a link to the card. */
  remind(record: RequestRecord, card: CardRef, user: string, n: number): Promise<void>;
  /** Tells one approver that address-book entries start cooling off (`text`), with a link to the card. */
  coolingNotice(record: RequestRecord, card: CardRef, user: string, text: string): Promise<void>;
  /** In an address-book addition's thread (its cooling notice): `requestId` waits for the entry. */
  postWaiting?(entryCard: CardRef, requestId: string): Promise<void>;
  /** Tells one ESCALATE_TO person that the request is still pending. */
  escalate(record: RequestRecord, card: CardRef, user: string): Promise<void>;
  /** The requester's message at a decision (a vote, approval, denial) or an outcome. */
  tellRequester(record: RequestRecord, card: CardRef, milestone: Milestone): Promise<void>;
  // A batch's thread. Each is posted once by app/notices/batch-thread.ts.
  /** The full rows as approved, a CSV in the card's thread. */
  batchRows(record: RequestRecord, card: CardRef, rows: readonly BatchRowRecord[]): Promise<void>;
  /** Loudly: the batch paused because these rows' outcome is unknown. */
  batchPaused(record: RequestRecord, card: CardRef, facts: BatchPauseFacts): Promise<void>;
  /**
   * The one progress message of a batch in its card's thread: posted when `ts` is undefined
   * (returns its ts), else updated in place (chat.update). Throttled by app/notices/batch-progress.ts.
   */
  batchProgress(record: RequestRecord, card: CardRef, ts: string | undefined): Promise<string>;
  /** The summary (counts, total moved) and the receipt CSV, at the end. */
  batchFinished(record: RequestRecord, card: CardRef, rows: readonly BatchRowOutcome[]): Promise<void>;
}

/** What a pause's thread reply names: every row with its outcome, and what is still unsent. */
export interface BatchPauseFacts {
  rows: readonly BatchRowOutcome[];
  unsent: { rows: number; need: Amount };
}

/** A row with what happened to it (its execution's state and outcome). */
export interface BatchRowOutcome extends BatchRowRecord {
  executionId: string;
  state: ExecutionState;
  outcome: RequestOutcome | undefined;
}

/** What the requester is told about: one approval, or the record's current state. */
export type Milestone = { kind: 'vote'; by: string } | { kind: 'state' };

/** The chat tool asked us to wait: nothing was done, so the same call may be made later. */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  constructor(readonly retryAfterMs: number) {
    super(`rate limited; retry after ${retryAfterMs} ms`);
  }
}

/** A delivery that will keep failing until an admin fixes something (channel, token, scope). */
export class NeedsAdminError extends Error {
  override readonly name = 'NeedsAdminError';
  constructor(
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`delivery needs an admin: ${problem}`, options);
  }
}
