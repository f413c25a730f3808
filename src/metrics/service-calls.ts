/** A service call's ending as a metric label (and as /healthz's view of reachability). */
import { classifyFailure } from '../service/classify.js';
import { isServiceError } from '../service/errors.js';
import type { CallOutcome } from './metrics.js';

export function callOutcome(err: unknown): CallOutcome {
  if (err === undefined) return 'ok';
  if (!isServiceError(err)) return 'invalid';
  // The one classifier decides; the metric only renames "never sent".
  const failure = classifyFailure(err);
  return failure === 'never-sent' ? 'not_sent' : failure;
}
