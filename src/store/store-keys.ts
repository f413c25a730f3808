/**
 * Every key the request store owns, from one prefix (hash-tagged for a Redis Cluster, so all of
 * them, BullMQ's included, land in one slot: store/redis.ts, config REDIS_PREFIX).
 */

import { VIEW_STATES, type ViewState } from '../domain/approval.js';
import type { RequestKind } from '../domain/request.js';

/** An approval's view entered `state`; `seq` is its history entry's position (1-based). */
export interface StateChange {
  id: string;
  kind: RequestKind;
  state: ViewState;
  seq: number;
}

/** Told after each state change the store made (metrics, audit webhook). */
export type ChangeListener = (change: StateChange) => void;

export class StoreKeys {
  constructor(readonly prefix: string) {}

  approval = (id: string) => `${this.prefix}:req:${id}`;
  history = (id: string) => `${this.prefix}:req:${id}:history`;
  execution = (executionId: string) => `${this.prefix}:exec:${executionId}`;
  /** Approvals by view state, scored by when they entered it. */
  state = (state: ViewState) => `${this.prefix}:req:state:${state}`;
  /** The nine view indexes in VIEW_STATES order, as the scripts expect them. */
  views = (): string[] => VIEW_STATES.map(this.state);

  get open() {
    return `${this.prefix}:req:open`;
  }
  /** One requester's requests for MAX_OPEN_PER_REQUESTER; a member counts while it is in `open`. */
  openBy = (requester: string) => `${this.prefix}:req:open:by:${requester}`;
  /** One API key's requests for its --max-open; a member counts while it is in `open`. */
  keyOpen = (keyId: string) => `${this.prefix}:apikey:${keyId}:open`;
  get recent() {
    return `${this.prefix}:req:recent`;
  }
  /** Approvals that are approved or running and still have queued executions. */
  get ready() {
    return `${this.prefix}:req:ready`;
  }
  /**
   * Approvals whose quorum was just reached, newest first: a worker's blocking pop starts their
   * execution 1 at once (store/lua/vote.lua pushes, adapters/jobs/wake-runner.ts pops).
   */
  get wake() {
    return `${this.prefix}:exec:wake`;
  }
  /** Executions between their compare-and-set and their answer, scored by start time. */
  get executing() {
    return `${this.prefix}:exec:executing`;
  }
  /** The freeze flag (store/controls.ts ControlStore.freezeKey). */
  get freeze() {
    return `${this.prefix}:freeze`;
  }
  /**
   * Every series' id, scored by its number (store/lua/create.lua adds each at its creation);
   * series created before it are added once, on the first read (store/series.ts SeriesStore.ids).
   * vote.lua adds a series again at its quorum and series-run.lua at each due run, so one that a
   * process of a version without the index created after that first read is listed once live.
   */
  get series() {
    return `${this.prefix}:series:index`;
  }
  /** Set once the series index holds every series created before create.lua wrote it. */
  get seriesIndexed() {
    return `${this.prefix}:series:indexed`;
  }
  /** Live series whose due run a freeze held (store/lua/series-run.lua); the unfreeze wakes them. */
  get seriesHeld() {
    return `${this.prefix}:series:held`;
  }
  /**
   * Where every velocity ledger key starts (store/controls.ts ControlStore reads it from here);
   * the scripts build `<ledgerPrefix><wallet id>:<code>` from the approval's subject.
   */
  get ledgerPrefix() {
    return `${this.prefix}:velocity:`;
  }
  /** A batch's rows whose velocity reservation was given back (each once). */
  /** BATCH_RATE's one limiter key, shared by every process (GCRA, store/lua/includes/gcra.lua). */
  get batchRate() {
    return `${this.prefix}:batch:rate`;
  }
  batchGiven = (approvalId: string) => `${this.prefix}:batch:${approvalId}:given`;
  /**
   * Open batches as '<wallet id> <batch id>' in approval order (scored
   * by decidedAt; the one holding its wallet's turn is re-scored 0: store/lua/includes/batch.lua).
   */
  get turns() {
    return `${this.prefix}:batch:turns`;
  }
  /** The sanctions list: destination keys (store/screening.ts), read by the start script. */
  get screeningList() {
    return `${this.prefix}:screening:list`;
  }
  /** The list's identity: name, publication date, SHA-256, count, confirmedAt. */
  get screeningMeta() {
    return `${this.prefix}:screening:meta`;
  }
  get seq() {
    return `${this.prefix}:req:seq`;
  }
}
