/**
 * A worker process's execution slots: how many service calls it makes at a time, shared by the
 * execute queue's BullMQ Workers and the wake runner (wake-runner.ts). Whoever holds work past the
 * limit waits its turn here, first come first served; a BullMQ job waiting keeps its lock (BullMQ
 * renews it for every active job), and a popped wake waiting has not started anything.
 */
export interface Slots {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Slots in use now (tests and the shutdown's wait). */
  readonly busy: number;
}

export function createSlots(size: number): Slots {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    // The slot passes straight to the next in line: no one can take it in between.
    if (next) next();
    else busy -= 1;
  };
  return {
    get busy() {
      return busy;
    },
    async run(work) {
      // A free slot is taken without a wait (no tick between the pick-up and the start script).
      if (busy < size) busy += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
