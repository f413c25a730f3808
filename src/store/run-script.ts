/**
 * Scripts by hash: EVALSHA, with the text sent only when Redis
 * answers NOSCRIPT (a restart, a failover, SCRIPT FLUSH, a cluster node that never saw it). That
 * is ioredis's defineCommand, on one Redis and on a Cluster alike; a NOSCRIPT reply means the
 * script did not run, so sending it again can never apply a transition twice. The approve path's
 * vote and start scripts are 3.0 and 1.3 KB of text Redis would otherwise read and hash per call.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis.js';

type Arg = string | number | Buffer;
type Runner = (numKeys: number, ...args: Arg[]) => Promise<unknown>;

const names = new Map<string, string>();

/** Same arguments as `redis.eval(lua, numKeys, ...keysAndArgs)`. */
export function evalScript(redis: RedisClient, lua: string, numKeys: number, ...args: Arg[]): Promise<unknown> {
  let name = names.get(lua);
  if (name === undefined) {
    name = `rampart_${createHash('sha1').update(lua).digest('hex')}`;
    names.set(lua, name);
  }
  const commands = redis as unknown as Record<string, Runner | undefined>;
  let run = commands[name];
  if (run === undefined) {
    redis.defineCommand(name, { lua });
    run = commands[name] as Runner;
  }
  return run.call(redis, numKeys, ...args);
}
