/**
 * Where the approval path spends its time: timestamps taken by decorators Rampart accepts at
 * start (src/rampart.ts `Decorators`) around the web side's vote (which pushes the quorum's wake),
 * the worker's compare-and-set and the service client's transfer. They only read the clock.
 */
import type { Decorators } from '../src/rampart.js';
import type { ServiceClient } from '../src/service/client.js';
import type { RequestStore } from '../src/store/requests.js';

export const STAGES = ['enqueue', 'pickup', 'claim', 'http'] as const;
export type Stage = (typeof STAGES)[number];

export const STAGE_LABEL: Record<Stage, string> = {
  enqueue: 'ack → vote answered (one script, its wake pushed inside; sent before the ack)',
  pickup: 'vote answered → worker claims it (wake list pop)',
  claim: 'claim → service call starts (CAS returning the sealed call, hash check)',
  http: 'service call starts → sandbox receives it (HTTP client, loopback)',
};

interface Marks {
  addCalled?: number;
  addDone?: number;
  claimCalled?: number;
}

export interface ApprovalTrace {
  /** Pass to startRampart's `decorate`. */
  decorate: Decorators;
  /** Stage durations from `acked` to `received` for one request; undefined where a mark is missing. */
  stages(requestId: string, amount: number, acked: number, received: number): Record<Stage, number> | undefined;
}

/** An object that behaves as `target` except for the methods given. */
const overriding = <T extends object>(target: T, methods: Partial<T>): T =>
  Object.assign(Object.create(target) as T, methods);

export function createApprovalTrace(): ApprovalTrace {
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
  return {
    decorate: {
      store(store: RequestStore, role) {
        if (role === 'web')
          return overriding(store, {
            async castVote(id, ...rest) {
              marks(id).addCalled = performance.now();
              const v = await store.castVote(id, ...rest);
              marks(id).addDone = performance.now();
              return v;
            },
          });
        if (role !== 'worker') return store;
        // The worker starts an execution (`R-1.1`); the marks are kept by request id.
        const executions = overriding(store.executions, {
          start(...args: Parameters<RequestStore['executions']['start']>) {
            marks(args[0].replace(/\.\d+$/, '')).claimCalled = performance.now();
            return store.executions.start(...args);
          },
        });
        return overriding(store, { executions });
      },
      service(service: ServiceClient) {
        return overriding(service, {
          transfer(body) {
            byAmount.set(body.amount, performance.now());
            return service.transfer(body);
          },
        });
      },
    },
    stages(requestId, amount, acked, received) {
      const m = byId.get(requestId);
      const called = byAmount.get(amount);
      if (!m?.addCalled || !m.addDone || !m.claimCalled || called === undefined) return undefined;
      // The vote has usually answered before the click's ack reaches the driver: that part is 0.
      const added = Math.max(acked, m.addDone);
      return {
        enqueue: added - acked,
        pickup: m.claimCalled - added,
        claim: called - m.claimCalled,
        http: received - called,
      };
    },
  };
}
