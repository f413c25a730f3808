/**
 * A worker process's execution slots: how many service calls it makes at a time, shared by the
 * execute queue's BullMQ Workers and the wake runner (wake-runner.ts). Whoever holds work past the
 * limit waits its turn here, first come first served; a BullMQ job waiting keeps its lock (BullMQ
 * renews it for every active job), and a popped wake waiting has not started anything. Once the
 * process stops, nothing waiting starts: a call begun then could outlast the shutdown's deadline.
 */
export interface Slots {
  /** `work`'s answer, or STOPPING when the process began to stop before a slot was free. */
  run<T>(work: () => Promise<T>): Promise<T | typeof STOPPING>;
  /** The process is stopping: whoever waits, and whoever comes, runs nothing. */
  close(): void;
}

/** What `run` answers instead of running, once the process is stopping. */
export const STOPPING = Symbol('stopping');

export function createSlots(size: number): Slots {
  let busy = 0;
  let closed = false;
  const waiting: ((go: boolean) => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    // The slot passes straight to the next in line: no one can take it in between.
    if (next) next(true);
    else busy -= 1;
  };
  return {
    close() {
      closed = true;
      for (const next of waiting.splice(0)) next(false);
    },
    async run(work) {
      if (closed) return STOPPING;
      // A free slot is taken without a wait (no tick between the pick-up and the start script).
      if (busy < size) busy += 1;
      else if (!(await new Promise<boolean>((resolve) => waiting.push(resolve)))) return STOPPING;
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
