/**
 * An ioredis client that counts what it sends: commands, and
 * sequential round trips — a command sent while no reply has come back since the last count
 * joins that round trip (a pipeline, a Promise.all, a fire-and-forget beside it); the first
 * command sent after a reply starts a new one. A script is one command, so one round trip.
 */
import { Redis } from 'ioredis';

export interface Tally {
  commands: number;
  roundTrips: number;
  byName: Map<string, number>;
}

export function countingRedis(url: string): { redis: Redis; tally: Tally; reset(): void } {
  const tally: Tally = { commands: 0, roundTrips: 0, byName: new Map() };
  let open = false;
  const close = () => {
    open = false;
  };
  class Counting extends Redis {
    override sendCommand(...args: Parameters<Redis['sendCommand']>): ReturnType<Redis['sendCommand']> {
      const [command] = args;
      tally.commands += 1;
      const name = command.name.toUpperCase();
      tally.byName.set(name, (tally.byName.get(name) ?? 0) + 1);
      if (!open) {
        open = true;
        tally.roundTrips += 1;
      }
      command.promise.then(close, close);
      return super.sendCommand(...args);
    }
  }
  const redis = new Counting(url, { maxRetriesPerRequest: null });
  return {
    redis,
    tally,
    reset() {
      tally.commands = 0;
      tally.roundTrips = 0;
      tally.byName.clear();
    },
  };
}
