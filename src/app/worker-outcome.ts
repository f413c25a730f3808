/**
 * What a worker-side use case tells the job that ran it: done (with what happened), wait this
 * long (Slack's rate limit, a throttle, a busy card: no attempt used), or look again after the
 * worker's recheck interval (held by the freeze). A thrown error is a failure the queue retries.
 */
export type JobOutcome<T> = { status: 'done'; result: T } | { status: 'wait'; ms: number } | { status: 'recheck' };

export const done = <T>(result: T): JobOutcome<T> => ({ status: 'done', result });
