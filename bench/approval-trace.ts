/**
 * Where the approval path spends its time: timestamps taken by wrapping three methods of the
 * running instances (the execute queue's add, the store's startExecution, the service client's
 * transfer). Rampart builds these objects itself, so wrapping is the only door from outside;
 * the wrappers only read the clock and are removed after the run.
 */
import type { Running } from '../src/rampart.js';

export const STAGES = ['listener', 'enqueue', 'pickup', 'claim', 'http'] as const;
export type Stage = (typeof STAGES)[number];

export const STAGE_LABEL: Record<Stage, string> = {
  listener: 'ack → execute job added (listener: authorise, vote, read, history, job lookup)',
  enqueue: 'Queue.add round trip (execute job)',
  pickup: 'job added → worker claims it (BullMQ pick-up, record read)',
  claim: 'claim → service call starts (CAS to executing, card notify job, hash check)',
  http: 'service call starts → sandbox receives it (HTTP client, loopback)',
};

interface Marks {
  addCalled?: number;
  addDone?: number;
  claimCalled?: number;
  callStarted?: number;
}

export interface ApprovalTrace {
  /** Stage durations from `acked` to `received` for one request; undefined where a mark is missing. */
  stages(requestId: string, amount: number, acked: number, received: number): Record<Stage, number> | undefined;
  remove(): void;
}

export function traceApprovalPath(running: Running): ApprovalTrace {
  const { queues, store, service } = running.deps;
  const byId = new Map<string, Marks>();
  const byAmount = new Map<number, number>();
  const marks = (id: string) => {
    let m = byId.get(id);
    if (!m) {
      m = {};
      byId.set(id, m);
    }
    return m;
  };

  const add = queues.execute.add;
  const startExecution = store.startExecution;
  const transfer = service.transfer;
  queues.execute.add = (async (...args: Parameters<typeof add>) => {
    const id = (args[1] as { requestId?: string } | undefined)?.requestId ?? '';
    marks(id).addCalled = performance.now();
    const job = await add.apply(queues.execute, args);
    marks(id).addDone = performance.now();
    return job;
  }) as typeof add;
  store.startExecution = (id: string, worker: string) => {
    marks(id).claimCalled = performance.now();
    return startExecution.call(store, id, worker);
  };
  service.transfer = (body) => {
    byAmount.set(body.amount, performance.now());
    return transfer.call(service, body);
  };

  return {
    stages(requestId, amount, acked, received) {
      const m = byId.get(requestId);
      const called = byAmount.get(amount);
      if (!m?.addCalled || !m.addDone || !m.claimCalled || called === undefined) return undefined;
      return {
        listener: m.addCalled - acked,
        enqueue: m.addDone - m.addCalled,
        pickup: m.claimCalled - m.addDone,
        claim: called - m.claimCalled,
        http: received - called,
      };
    },
    remove() {
      queues.execute.add = add;
      store.startExecution = startExecution;
      service.transfer = transfer;
    },
  };
}
