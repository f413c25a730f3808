/** A notice Slack asked us to hold: nothing was posted, so the same job waits and posts it later. */
import { RateLimitedError } from '../notifier.js';
import type { JobOutcome } from '../worker-outcome.js';

export async function waitOnRateLimit<T>(run: () => Promise<JobOutcome<T>>): Promise<JobOutcome<T>> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof RateLimitedError) return { status: 'wait', ms: err.retryAfterMs };
    throw err;
  }
}
