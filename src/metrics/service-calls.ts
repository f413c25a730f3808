/** A service call's ending as a metric label (and as /healthz's view of reachability). */
import { isServiceError } from '../service/errors.js';
import type { CallOutcome } from './metrics.js';

export function callOutcome(err: unknown): CallOutcome {
  if (err === undefined) return 'ok';
  if (!isServiceError(err)) return 'invalid';
  if (err.code === 'SERVICE_REJECTED') return 'refused';
  return err.mayHaveReached ? 'ambiguous' : 'not_sent';
}
