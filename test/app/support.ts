/**
 * The use cases wired to a real Redis and the sandbox, with recording JobQueue and approver
 * ports: app/ only, nothing from slack/.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Queues } from '../../src/adapters/jobs/queues.js';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import type { AppDeps } from '../../src/app/deps.js';
import type { ExecuteOneDeps } from '../../src/app/execute-one.js';
import type { NotifyRequest } from '../../src/app/ports.js';
import { type NewRequest, sealRequest } from '../../src/app/post-request.js';
import { loadConfig } from '../../src/config.js';
import type { BatchFacts, BatchRowRecord } from '../../src/domain/batch-approval.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { createLogger } from '../../src/log.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ServiceClient } from '../../src/service/client.js';
import { ControlStore, UnfreezeStore } from '../../src/store/controls.js';
import { Registry } from '../../src/store/registry.js';
import { RequestStore } from '../../src/store/requests.js';
import { SeriesStore } from '../../src/store/series.js';
import { sealedSeriesInput, transferOf } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { useStarted } from '../support/use-harness.js';

export const REQUESTER = 'U0REQUESTER';
export const APPROVERS = ['U0APPROVER1', 'U0APPROVER2'];
export const A1 = 'U0APPROVER1';
export const A2 = 'U0APPROVER2';

export const transfer = transferOf;

export interface World {
  redis: Redis;
  prefix: string;
  store: RequestStore;
  controls: ControlStore;
  unfreeze: UnfreezeStore;
  sandbox: Sandbox;
  service: ServiceClient;
  deps: AppDeps;
  /** What the use cases asked the queue for, in order. */
  notified: NotifyRequest[];
  tries: Array<{ id: string; attempt: number; delayMs: number | undefined }>;
  /** Job ids the fake queue reports as running. */
  running: Set<string>;
  exec(service?: ServiceClient): ExecuteOneDeps;
  submit(calls: ServiceCall[]): Promise<string>;
  /** Transfers the sandbox received for an amount. */
  received(amount: number): number;
  close(): Promise<void>;
}

/** `env`: settings beside NODE_ENV=test (e.g. VELOCITY_LIMITS); APPROVERS are always the test's. */
export async function startWorld(name: string, env: Record<string, string> = {}): Promise<World> {
  const prefix = `test-${name}-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const store = new RequestStore(redis, prefix);
  const controls = new ControlStore(redis, prefix);
  const sandbox = await startSandbox({ apiKey: 'k' });
  const service = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
  const notified: NotifyRequest[] = [];
  const tries: World['tries'] = [];
  const running = new Set<string>();
  const jobs = {
    notify: async (job: NotifyRequest) => void notified.push(job),
    enqueueTry: async (id: string, attempt: number, delayMs?: number) => void tries.push({ id, attempt, delayMs }),
    isRunning: async (jobId: string) => running.has(jobId),
    enqueueApproved: async (id: string) => void tries.push({ id: `${id}.1`, attempt: 1, delayMs: undefined }),
    releaseHeld: async (id: string, attempt: number) => void tries.push({ id, attempt, delayMs: 0 }),
  };
  const log = createLogger({ level: 'silent' });
  const deps: AppDeps = {
    config: { ...loadConfig({ NODE_ENV: 'test', ...env }), approvers: APPROVERS },
    service,
    store,
    // The use cases call only the methods above (JobQueue and the queue's decision helpers).
    queues: jobs as unknown as Queues,
    registry: new Registry(redis, prefix),
    controls,
    approvers: { isApprover: async (u) => APPROVERS.includes(u) },
    log,
    now: Date.now,
  };
  const world: World = {
    redis,
    prefix,
    store,
    controls,
    unfreeze: new UnfreezeStore(redis, prefix, controls),
    sandbox,
    service,
    deps,
    notified,
    tries,
    running,
    exec: (s = service) => ({ service: s, store, registry: deps.registry, jobs, log, now: Date.now, workerName: 't' }),
    async submit(calls) {
      const r: NewRequest = {
        call: calls[0] as ServiceCall,
        calls,
        display: { chain: 'base' },
        requester: REQUESTER,
        reason: 'approval with executions',
        origin: undefined,
        required: 1,
        rule: '1 approval',
        stepUp: false,
        submission: `V${randomUUID()}`,
      };
      const s = await sealRequest(deps, r);
      if (s.kind !== 'created') throw new Error(`not created: ${s.kind}`);
      return s.sealed.id;
    },
    received: (amount) =>
      sandbox.state.received.filter(
        (r) => r.path === '/transfer' && (r.body as { amount?: number } | undefined)?.amount === amount,
      ).length,
    async close() {
      await service.close();
      await sandbox.close();
      await redis.quit();
      await deleteKeys(prefix);
    },
  };
  return world;
}

/**
 * One world for the enclosing file or describe block: started in a beforeAll, closed in an
 * afterAll, read through the returned handle inside tests and later hooks.
 */
export function useWorld(name: string, env: Record<string, string> = {}): World {
  return useStarted(
    `${name} world`,
    () => startWorld(name, env),
    (w) => w.close(),
  );
}

/**
 * A batch as submitBatch stores it: `B-<n>` with its rows saved, the approval's call
 * carrying the total and one sealed call per row. `R`: the same calls as one approval `R-<n>`.
 */
export async function sealBatch(
  w: World,
  amounts: number[],
  kind: 'B' | 'R' = 'B',
  over: { rows?: BatchRowRecord[]; batch?: BatchFacts; display?: NewRequest['display']; reason?: string } = {},
): Promise<string> {
  const store = w.deps.store;
  const id = await store.nextId(kind);
  if (kind === 'B')
    await store.batches.saveRows(
      id,
      over.rows ?? amounts.map((a, i) => ({ row: i + 2, destination: 'x', amount: String(a) })),
    );
  const s = await sealRequest(w.deps, {
    id,
    shape: kind === 'B' ? 'batch' : 'single',
    call: transfer(amounts.reduce((a, b) => a + b, 0)),
    calls: amounts.map(transfer),
    display: over.display ?? {
      chain: 'base',
      walletAlias: 'ops',
      ...(over.batch ? { batch: over.batch, assetCode: 'USDC' } : {}),
    },
    requester: REQUESTER,
    reason: over.reason ?? 'batch',
    origin: undefined,
    required: 1,
    rule: '1 approval',
    stepUp: false,
    submission: `V${randomUUID()}`,
  });
  if (s.kind !== 'created') throw new Error(`not created: ${s.kind}`);
  return id;
}

/**
 * A series of three runs a minute apart from `first` (the cadence tests may use), sealed as a
 * submission seals it; live after `approver`'s vote (approvers[0] unless `pending`).
 */
export async function sealSeries(
  w: World,
  amount: number,
  over: { first: number; display?: Partial<NewRequest['display']>; pending?: boolean; call?: ServiceCall },
): Promise<string> {
  const { first } = over;
  const s = await sealRequest(
    w.deps,
    sealedSeriesInput(
      (await w.store.allocate('S')).id,
      over.call ?? transfer(amount),
      [first, first + 60_000, first + 120_000],
      {
        display: { chain: 'base', walletAlias: 'ops', ...over.display },
        reason: 'weekly sweep',
      },
    ),
  );
  if (s.kind !== 'created') throw new Error(`not created: ${s.kind}`);
  if (!over.pending && ((await w.store.castVote(s.sealed.id, A1)).state as string) !== 'live')
    throw new Error(`${s.sealed.id} did not go live`);
  return s.sealed.id;
}

/** In the past of Redis's clock: a run's runAt is the later of its sealed time and Redis TIME. */
export const T0 = Date.UTC(2026, 10, 1, 8);
export const MINUTE = 60_000;

/** The series use cases' deps: the World's, with the test's clock for them and for the series store. */
export type SeriesDeps = AppDeps & { now: () => number; series: SeriesStore };

/**
 * A World for one file of series tests, started before its tests and closed after them: `started`
 * receives it and its SeriesDeps, whose clock is the one returned (the tests move `clock.at`).
 */
export function useSeriesWorld(name: string, started: (w: World, deps: SeriesDeps) => void): { at: number } {
  const clock = { at: 0 };
  useStarted(
    `${name} world`,
    async () => {
      const world = await startWorld(name);
      try {
        started(world, {
          ...world.deps,
          now: () => clock.at,
          series: new SeriesStore(world.redis, world.store.keys, () => clock.at),
        });
      } catch (e) {
        await world.close();
        throw e;
      }
      return world;
    },
    (w) => w.close(),
  );
  return clock;
}

/** An approved batch whose wallet turn and funding check are passed (as row 1's first try does). */
export async function approvedBatch(w: World, amounts: number[]): Promise<string> {
  const id = await sealBatch(w, amounts);
  if ((await approve(w.deps, id, A1)).kind !== 'approved') throw new Error(`${id} not approved`);
  const r = await w.store.executions.start(`${id}.1`, 't');
  if (r.token !== undefined || r.approval !== 'funding') throw new Error(`${id} did not ask for its funding check`);
  if ((await checkFunding(w.deps, id)) !== 'funded') throw new Error(`${id} not funded`);
  return id;
}
