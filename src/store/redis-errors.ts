/**
 * Which failures mean "Redis cannot be reached or did not answer", decided
 * here once. ioredis gives most of them no code, only fixed messages (ioredis built/Command.js,
 * Redis.js, cluster/index.js, utils CONNECTION_CLOSED_ERROR_MSG), so those are listed as such.
 */
import { RampartError } from '../errors.js';

export class RedisUnavailableError extends RampartError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('REDIS_UNAVAILABLE', message, options);
  }
}

/** The command was not written (or provably refused): nothing changed in Redis. */
const NEVER_SENT = new Set([
  "Stream isn't writeable and enableOfflineQueue options is false",
  "Cluster isn't ready and enableOfflineQueue options is false",
  'None of startup nodes is available',
]);
/** The command may have reached Redis and run after we stopped waiting (or the link dropped). */
const NO_ANSWER = new Set(['Command timed out', 'Connection is closed.']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
/** Redis's own replies while it cannot serve (loading its AOF, cluster down or failing over). */
const NOT_SERVING = /^(LOADING|CLUSTERDOWN|MASTERDOWN|TRYAGAIN)\b/;

export type RedisFailure = 'unreachable' | 'no_answer';

export function redisFailure(err: unknown): RedisFailure | undefined {
  if (err instanceof RedisUnavailableError) return 'unreachable';
  if (!(err instanceof Error)) return undefined;
  if (NO_ANSWER.has(err.message)) return 'no_answer';
  if (NEVER_SENT.has(err.message) || NOT_SERVING.test(err.message)) return 'unreachable';
  const name = err.name;
  if (name === 'MaxRetriesPerRequestError' || name === 'ClusterAllFailedError') return 'unreachable';
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'unreachable';
  return undefined;
}

export const isRedisFailure = (err: unknown): boolean => redisFailure(err) !== undefined;

/** The sentence a person reads. */
export const REDIS_UNREACHABLE_TEXT =
  'Rampart cannot reach its database right now; nothing was changed; try again in a minute.';
/** A stalled Redis may still apply a write it did not confirm: say so, do not promise "nothing". */
export const REDIS_NO_ANSWER_TEXT =
  'Rampart’s database did not answer in time; what you did may or may not have been saved, so check the request before trying again in a minute.';

export function describeRedisFailure(failure: RedisFailure): string {
  return failure === 'no_answer' ? REDIS_NO_ANSWER_TEXT : REDIS_UNREACHABLE_TEXT;
}

/**
 * For work after Slack's ack, which nobody waits on: tries again while Redis is unreachable or
 * stalled (the fail-fast connection gives up after about a second), for up to `tries` attempts.
 * Only for steps that are safe to repeat (a fixed job id, or a duplicate that does no harm).
 */
export async function whenRedisAnswers<T>(step: () => Promise<T>, tries = 10, delayMs = 1000): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (err) {
      if (attempt >= tries || !isRedisFailure(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

type Replies = [error: Error | null, result: unknown][] | null;

/**
 * ioredis resolves a pipeline with each command's error beside its reply instead of rejecting
 * (ioredis built/Pipeline.js fillResult), so a stalled or unreachable Redis reads as empty
 * replies unless they are checked: the first error is thrown, as a lone command would throw it.
 * `null` is a transaction aborted by WATCH, which no caller here uses.
 */
export function repliesOf(replies: Replies): unknown[] {
  if (!replies) throw new RedisUnavailableError('Redis aborted a transaction without running it.');
  for (const [err] of replies) if (err) throw err;
  return replies.map(([, result]) => result);
}

/**
 * The replies of a pipeline that only reads. A read changes nothing even when it timed out, so
 * its failure is "unreachable" (REDIS_UNREACHABLE_TEXT), never "may or may not have been saved".
 */
export async function readReplies(pending: Promise<Replies>): Promise<unknown[]> {
  try {
    return repliesOf(await pending);
  } catch (err) {
    if (!isRedisFailure(err)) throw err;
    throw new RedisUnavailableError('Redis did not answer a read.', { cause: err });
  }
}
