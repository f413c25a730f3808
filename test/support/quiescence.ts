/**
 * Proving that something did NOT happen: wait until the named queues have no active, waiting,
 * prioritised or delayed job twice in a row (STYLE "Tests"), never a fixed sleep.
 */
import type { Queue } from 'bullmq';
import { eventually } from './harness.js';

const BUSY = ['active', 'waiting', 'prioritized', 'delayed', 'waiting-children'] as const;

export async function waitForQuiet(queues: readonly Queue[], timeoutMs = 20_000): Promise<void> {
  let quietOnce = false;
  await eventually(
    async () => {
      const counts = await Promise.all(queues.map((q) => q.getJobCounts(...BUSY)));
      const busy = counts.some((c) => Object.values(c).some((n) => n > 0));
      if (busy) {
        quietOnce = false;
        return undefined;
      }
      if (quietOnce) return true;
      quietOnce = true;
      await new Promise((r) => setTimeout(r, 50));
      return undefined;
    },
    timeoutMs,
    'queues to be quiet',
  );
}
