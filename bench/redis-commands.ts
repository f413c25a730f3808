/**
 * Redis commands per approve click: a MONITOR connection sees every
 * command while a few extra requests are approved one at a time, outside the timed samples
 * (MONITOR slows Redis). Two windows per click, by Redis's own clock: click sent → the service
 * receives the transfer (the approve path), and click sent → the outcome reply is in the thread.
 * Only the fake Slack is polled inside the windows, so the bench adds no command of its own.
 */
import { Redis } from 'ioredis';
import { isFinal } from '../src/domain/request.js';
import { watchTransfers } from './approval-latency.js';
import { amountFor, idle, postRequests, until } from './requests.js';
import { PEOPLE, type World } from './world.js';

export interface CommandCount {
  clicks: number;
  /** Median commands from the click to the service call, and from the click to the thread reply. */
  toCall: number;
  toReply: number;
  /** Commands by name in the median click's path window (EVAL vs EVALSHA, BullMQ's scripts, …). */
  byName: Record<string, number>;
}

const wallMs = () => performance.timeOrigin + performance.now();
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export async function countApproveCommands(world: World, clicks: number, base: number): Promise<CommandCount> {
  const { deps } = world.rampart;
  const ids = await postRequests(world, clicks, base);
  const arrivals = new Map<number, number>();
  const unwatch = watchTransfers(world, (amount) => arrivals.set(amount, wallMs()));
  const seen: { at: number; name: string }[] = [];
  const client = new Redis(world.redisUrl, { lazyConnect: true });
  const monitor = await client.monitor();
  // Lines still in flight when the socket closes reach ioredis after it left "monitoring" and are
  // reported as a command-queue error; only an error before that point is the bench's concern.
  let closing = false;
  let failure: Error | undefined;
  monitor.on('error', (err: Error) => {
    if (!closing) failure ??= err;
  });
  monitor.on('monitor', (time: string, args: string[], source: string) => {
    // Commands a script runs show as from "lua": the script itself is the one command sent.
    if (source === 'lua') return;
    seen.push({ at: Number(time) * 1000, name: (args[0] ?? '').toUpperCase() });
  });
  const windows: { from: number; call: number; reply: number }[] = [];
  try {
    for (const [k, id] of ids.entries()) {
      const amount = amountFor(base + k);
      const record = await deps.store.get(id);
      const card = record?.card && world.fake.message(record.card.channel, record.card.ts);
      if (!card || !record.card) throw new Error(`no card for ${id}`);
      const { channel, ts } = record.card;
      const from = wallMs();
      await world.driver.click(PEOPLE.approver, { action_id: 'request_approve', message: card });
      await until(`${id}'s transfer`, 10_000, () => arrivals.has(amount));
      await until(`${id}'s outcome reply`, 10_000, () => world.fake.thread(channel, ts).length > 0);
      windows.push({ from, call: arrivals.get(amount) ?? Number.NaN, reply: wallMs() });
      await until(`${id} to settle`, 30_000, async () => {
        const now = await deps.store.get(id);
        return Boolean(now && isFinal(now.state)) && idle([deps.queues.execute, deps.queues.notifications]);
      });
    }
    // MONITOR lines arrive after the commands they show: take them all before counting.
    await client.ping().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    unwatch();
    closing = true;
    monitor.disconnect();
    client.disconnect();
  }
  if (failure) throw failure;
  const within = (from: number, to: number) => seen.filter((c) => c.at >= from && c.at <= to);
  const toCall = windows.map((w) => within(w.from, w.call).length);
  const mid = windows.find((w) => within(w.from, w.call).length === median(toCall));
  const byName: Record<string, number> = {};
  for (const c of mid ? within(mid.from, mid.call) : []) byName[c.name] = (byName[c.name] ?? 0) + 1;
  return {
    clicks,
    toCall: median(toCall),
    toReply: median(windows.map((w) => within(w.from, w.reply).length)),
    byName,
  };
}
