/**
 * Slack waits 3 s for an answer; a service call made before the ack must fit well inside it.
 * Rejects with DeadlineError when `ms` pass first (the call itself goes on and is ignored).
 */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

export function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
