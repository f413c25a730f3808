/**
 * Part 2: from the approving click's ack to the service receiving the transfer.
 * The click goes through the SlackDriver on the card Rampart posted; the arrival is seen by a
 * hook on the sandbox's record of received requests, which notes the time before handling.
 */
import { isFinal } from '../src/domain/request.js';
import type { ReceivedRequest } from '../src/sandbox/index.js';
import { STAGES, type Stage } from './approval-trace.js';
import { amountFor, idle, postRequests, until } from './requests.js';
import { PEOPLE, type World } from './world.js';

const TRANSFER_TIMEOUT_MS = 10_000;

export interface ApprovalResult {
  /** Click ack received → sandbox received POST /transfer, per measured request. */
  samples: number[];
  /** How long each approving click took to be acknowledged. */
  clickAcks: number[];
  /** The same samples split into stages (bench/approval-trace.ts). */
  stages: Record<Stage, number[]>;
  errors: number;
  firstError: string | undefined;
}

/** Calls `listener` with the time each POST /transfer reaches the sandbox, before it is handled. */
export function watchTransfers(world: World, listener: (amount: number, at: number) => void): () => void {
  const received = world.sandbox.state.received;
  const original = received.push;
  received.push = (...items: ReceivedRequest[]) => {
    const at = performance.now();
    for (const item of items) {
      const body = item.body as { amount?: unknown } | undefined;
      if (item.method === 'POST' && item.path === '/transfer' && typeof body?.amount === 'number') {
        listener(body.amount, at);
      }
    }
    return original.apply(received, items);
  };
  return () => {
    received.push = original;
  };
}

export async function measureApprovals(
  world: World,
  options: { warmup: number; measured: number; concurrency: number; base?: number },
): Promise<ApprovalResult> {
  const { deps } = world.rampart;
  const total = options.warmup + options.measured;
  const base = options.base ?? 0;
  const ids = await postRequests(world, total, base);
  const arrived = new Map<number, number>();
  const waiters = new Map<number, (at: number) => void>();
  const unwatch = watchTransfers(world, (amount, at) => {
    arrived.set(amount, at);
    waiters.get(amount)?.(at);
  });
  const { trace } = world;
  const samples: number[] = [];
  const clickAcks: number[] = [];
  const stages = Object.fromEntries(STAGES.map((s) => [s, [] as number[]])) as Record<Stage, number[]>;
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;

  const approveOne = async (index: number) => {
    const id = ids[index] as string;
    const amount = amountFor(base + index);
    const record = await deps.store.get(id);
    const card = record?.card && world.fake.message(record.card.channel, record.card.ts);
    if (!card) throw new Error(`no card for ${id}`);
    let timer: NodeJS.Timeout | undefined;
    const transfer = new Promise<number>((resolve, reject) => {
      waiters.set(amount, resolve);
      timer = setTimeout(
        () => reject(new Error(`${id}: no transfer within ${TRANSFER_TIMEOUT_MS} ms`)),
        TRANSFER_TIMEOUT_MS,
      );
    });
    let acked: number;
    let at: number;
    let ackMs: number;
    try {
      const click = await world.driver.click(PEOPLE.approver, { action_id: 'request_approve', message: card });
      acked = performance.now();
      ackMs = click.ackMs;
      if (click.status !== 200) throw new Error(`${id}: approve click answered HTTP ${click.status}`);
      at = arrived.get(amount) ?? (await transfer);
    } finally {
      clearTimeout(timer);
      waiters.delete(amount);
    }
    if (index >= options.warmup) {
      samples.push(at - acked);
      clickAcks.push(ackMs);
      const split = trace.stages(id, amount, acked, at);
      if (split) for (const stage of STAGES) stages[stage].push(split[stage]);
    }
    if (options.concurrency === 1) {
      // Sequential: the next click waits until this request's follow-up work (state change,
      // card update, thread reply) is done, so each sample is the path alone.
      const cardRef = record?.card;
      await until(`${id} to settle`, 30_000, async () => {
        const now = await deps.store.get(id);
        if (!now || !isFinal(now.state) || !cardRef) return false;
        if (world.fake.thread(cardRef.channel, cardRef.ts).length === 0) return false;
        return idle([deps.queues.execute, deps.queues.notifications]);
      });
    }
  };

  const lane = async () => {
    while (next < total) {
      const index = next;
      next += 1;
      try {
        await approveOne(index);
      } catch (err) {
        errors += 1;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, total) }, lane));
  } finally {
    unwatch();
  }
  return { samples, clickAcks, stages, errors, firstError };
}
