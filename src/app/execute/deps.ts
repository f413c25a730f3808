/** What one execution's run needs and answers (app/execute-one.ts is the pipeline). */

import type { DestinationMode } from '../../domain/address-book.js';
import type { Logger } from '../../log.js';
import type { ServiceClient } from '../../service/client.js';
import type { ControlStore } from '../../store/controls.js';
import type { StartScreening } from '../../store/executions.js';
import type { Registry } from '../../store/registry.js';
import type { RequestStore } from '../../store/requests.js';
import type { BatchRunConfig } from '../batch-run.js';
import type { Clock, JobQueue } from '../ports.js';

export interface ExecuteOneDeps {
  service: ServiceClient;
  store: RequestStore;
  registry: Registry;
  jobs: JobQueue;
  log: Logger;
  now: Clock;
  workerName: string;
  /** A failed execution gives its velocity headroom back. */
  controls?: ControlStore;
  /**
   * True once the start is on a replica (WAIT 1), or when
   * Redis has none. Without it the execution goes back to queued, never sent.
   */
  durable?: () => Promise<boolean>;
  /** ADDRESS_COOLDOWN: how long an approved address-book entry cools off before it is usable. */
  addressCooldownMs?: number;
  /** DESTINATIONS as set; outside open, a newly registered beneficiary cools off for ADDRESS_COOLDOWN. */
  destinationsMode?: DestinationMode;
  /** BATCH_PAUSE_AFTER_FAILURES, BATCH_HOLD_LIMIT and BATCH_RATE (defaults: 10, none, off). */
  batch?: BatchRunConfig;
  /** SCREENING and SCREENING_MAX_AGE, applied inside the start script (default: on, 7 days). */
  screening?: StartScreening;
  /**
   * Test seam: runs between the job's pick-up and the
   * compare-and-set, so a test can stop, pause or freeze there. Never set in production.
   */
  beforeStart?: (executionId: string) => Promise<void>;
}

export interface ExecuteOneOptions {
  /** The BullMQ job running this try ('' outside a queue). */
  jobId?: string;
  /** Tries an execution gets when its call provably never left (default EXECUTE_TRIES). */
  maxTries?: number;
  /** Set when the result is 'waiting': ms until its address-book entry finishes cooling off. */
  waited?: { ms: number };
}

/**
 * 'held': the freeze refused the start; nothing changed, the job waits. 'wait': a batch's
 * funding could not be checked (balance unreadable); the job waits too. 'waiting': its
 * address-book entry is still cooling off (never 'held': that is the freeze's word); 'cancelled':
 * its entry was removed, and the start script cancelled it.
 */
// 'not-yet': before the approval's runAt (a cancel window or a set time), or a batch's row before
// BATCH_RATE's next slot; nothing changed, the job waits the time left without using a try.
export type ExecuteResult =
  | 'succeeded'
  | 'failed'
  | 'unknown'
  | 'retry'
  | 'skipped'
  | 'held'
  | 'wait'
  | 'waiting'
  | 'cancelled'
  | 'not-yet';

/** Only a call that provably never left is tried again: this many tries at most. */
export const EXECUTE_TRIES = 3;
