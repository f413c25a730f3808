/**
 * The floor for part 2: a bare BullMQ round trip on the same Redis, Queue.add → Worker starts
 * the job, one job at a time, under its own prefix (removed with the bench's keys).
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';

const benchJob = z.object({ i: z.number().int() });

export async function measureBareBullmq(
  redisUrl: string,
  prefix: string,
  options: { warmup: number; measured: number },
): Promise<number[]> {
  // Same shape as Rampart: one connection shared by queue and worker (BullMQ duplicates it for blocking).
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const opts = { connection, prefix: `${prefix}:bare` };
  const started = new Map<number, (at: number) => void>();
  const completed = new Map<number, () => void>();
  const queue = new Queue('bench', opts);
  const worker = new Worker(
    'bench',
    async (job) => {
      const at = performance.now();
      started.get(benchJob.parse(job.data).i)?.(at);
    },
    { ...opts, concurrency: 1 },
  );
  worker.on('completed', (job) => completed.get(benchJob.parse(job.data).i)?.());
  const samples: number[] = [];
  try {
    await worker.waitUntilReady();
    for (let i = 0; i < options.warmup + options.measured; i++) {
      const start = new Promise<number>((resolve) => started.set(i, resolve));
      const done = new Promise<void>((resolve) => completed.set(i, resolve));
      const before = performance.now();
      await queue.add('bench', { i }, { removeOnComplete: true, removeOnFail: true });
      const at = await start;
      await done;
      started.delete(i);
      completed.delete(i);
      if (i >= options.warmup) samples.push(at - before);
    }
  } finally {
    await worker.close();
    await queue.close();
    await connection.quit();
  }
  return samples;
}
