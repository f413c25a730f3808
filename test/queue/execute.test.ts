/**
 * executeOne against a real Redis and real HTTP: the execution record decides, the sealed call is
 * checked against its sealHash, and only a call that provably never left is tried again.
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueues, type Queues } from '../../src/adapters/jobs/queues.js';
import { outcomeReply } from '../../src/adapters/slack/blocks/card-replies.js';
import { EXECUTING_CARD_AFTER_MS, type ExecuteOneOptions, executeOne } from '../../src/app/execute-one.js';
import { tryJobId, wakeRunId } from '../../src/domain/approval.js';
import { callHash, type SealedRequest, type ServiceCall } from '../../src/domain/request.js';
import { createLogger } from '../../src/log.js';
import { outcomeMessage } from '../../src/presenters/describe-error.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ServiceClient } from '../../src/service/client.js';
import { Registry } from '../../src/store/registry.js';
import { RequestStore } from '../../src/store/requests.js';
import { type Answer, drip, envelopeText, fixed, huge, startApplyingService } from '../support/applying-service.js';
import { buildFreshRequest, createSealed } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

const prefix = `test-execute-${randomUUID().slice(0, 8)}`;
let redis: Redis;
let store: RequestStore;
let registry: Registry;
let queues: Queues;
let sandbox: Sandbox;
let deadPort: number;
const sink = new LogSink();
const log = createLogger({ level: 'debug' }, sink);

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  store = new RequestStore(redis, prefix);
  registry = new Registry(redis, prefix);
  queues = createQueues(redis, prefix, log);
  sandbox = await startSandbox({ apiKey: 'k' });
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  await queues.close();
  await sandbox.close();
  await redis.quit();
  await deleteKeys(prefix);
});

const call: ServiceCall = {
  kind: 'transfer',
  body: {
    wallet_id: 'wal_ops_7f3a',
    amount: 3,
    receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
    asset: 'base:usdc',
  },
};

async function approvedRequest(overrides: Partial<SealedRequest> = {}): Promise<string> {
  const fields = { display: { chain: 'base' }, requester: 'U1', expiresAt: Date.now() + 60_000 };
  const id = await createSealed(store, call, { ...fields, ...overrides });
  expect(await store.vote(id, 'U2')).toBe('approved');
  return id;
}

const run = (service: ServiceClient, id: string, options: ExecuteOneOptions = {}) =>
  executeOne({ service, store, registry, jobs: queues, log, now: Date.now, workerName: 't' }, `${id}.1`, options);

describe('executeOne', () => {
  it('retries only a call that never left: connection refused returns the request to approved', async () => {
    const id = await approvedRequest();
    const dead = new ServiceClient({ baseUrl: `http://127.0.0.1:${deadPort}`, apiKey: 'k' });
    expect(await run(dead, id)).toBe('retry');
    expect((await store.get(id))?.state).toBe('approved');
    expect((await store.get(id))?.executions[0]).toMatchObject({ state: 'queued', tries: 1 });
    // The next try is its own job (a fresh id), delayed by the backoff.
    expect(await queues.execute.getJobState(`${id}.1-t2`)).toBe('delayed');
    const live = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
    expect(await run(live, id)).toBe('succeeded');
    expect(sandbox.state.received.filter((r) => r.path === '/transfer')).toHaveLength(1);
    await dead.close();
    await live.close();
  });

  it('queues the "executing" card refresh only after a slow call has begun, never before it', async () => {
    const id = await approvedRequest();
    const order: string[] = [];
    const live = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
    const service = Object.assign(Object.create(live) as ServiceClient, {
      // Answers only after the "executing" threshold (a quick call's outcome refreshes the card itself).
      async transfer(body: Parameters<ServiceClient['transfer']>[0]) {
        order.push('call');
        const answer = await live.transfer(body);
        await new Promise((r) => setTimeout(r, EXECUTING_CARD_AFTER_MS + 50));
        return answer;
      },
    });
    const jobs = Object.assign(Object.create(queues) as Queues, {
      notify(job: { requestId: string; kind: 'card' | 'outcome' | 'unknown' | 'not-sent' }) {
        order.push(job.kind);
        return queues.notify(job);
      },
    });
    const deps = { service, store, registry, jobs, log, now: Date.now, workerName: 't' };
    expect(await executeOne(deps, `${id}.1`)).toBe('succeeded');
    expect(order).toEqual(['call', 'card', 'outcome']);
    await live.close();
  });

  it('gives up as failed (never sent) on the last attempt', async () => {
    const id = await approvedRequest();
    const dead = new ServiceClient({ baseUrl: `http://127.0.0.1:${deadPort}`, apiKey: 'k' });
    expect(await run(dead, id, { maxTries: 1 })).toBe('failed');
    const { outcome } = (await store.get(id)) ?? {};
    expect(outcome?.failure?.class).toBe('never-sent');
    expect(outcomeMessage(outcome)).toContain('could not be reached');
    await dead.close();
  });

  it('refuses to run a stored call that does not match its sealHash', async () => {
    const id = await approvedRequest();
    // Someone with Redis access changes the sealed call after approval.
    await redis.hset(
      `${prefix}:exec:${id}.1`,
      'call',
      JSON.stringify({ ...call, body: { ...call.body, amount: 3000 } }),
    );
    const live = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
    const before = sandbox.state.received.length;
    expect(await run(live, id)).toBe('failed');
    expect(sandbox.state.received.length).toBe(before);
    await live.close();
  });

  it('refuses a record sealed with -1: failed, nothing sent, request it again with an exact amount', async () => {
    const entire: ServiceCall = { kind: 'transfer', body: { ...call.body, amount: -1 } } as ServiceCall;
    const id = await approvedRequest({ call: entire, hash: callHash(entire) });
    const live = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
    const before = sandbox.state.received.length;
    expect(await run(live, id)).toBe('failed');
    expect(sandbox.state.received.length).toBe(before);
    const record = await store.get(id);
    expect(record?.state).toBe('failed');
    expect(record && outcomeReply(record)).toContain('nothing was sent. Request it again with an exact amount');
    await live.close();
  });

  it('never calls for a request that is not approved, and turns a found "executing" into unknown', async () => {
    const id = await store.nextId();
    await store.create(buildFreshRequest(id, { call }));
    const live = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
    const before = sandbox.state.received.length;
    expect(await run(live, id)).toBe('skipped');
    await store.vote(id, 'U2');
    await store.startExecution(id, 'crashed-worker');
    expect(await run(live, id)).toBe('unknown');
    expect((await store.get(id))?.state).toBe('unknown');
    expect(sandbox.state.received.length).toBe(before);
    await live.close();
  });

  it("a click's wake-up that finds nothing to start says so at debug; any other job that may not start is a warning", async () => {
    const id = await store.nextId();
    await store.create(buildFreshRequest(id, { call }));
    const gone = `R-${9_000_000 + Number(id.slice(2))}`;
    const live = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
    const before = sandbox.state.received.length;
    /** pino levels of the worker's "execute:" lines logged while `step` ran (20 debug, 40 warn, 50 error). */
    const levels = async (step: () => Promise<unknown>) => {
      const mark = sink.lines.length;
      expect(await step()).toBe('skipped');
      return sink.lines
        .slice(mark)
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .filter((l) => l.msg.startsWith('execute:'))
        .map((l) => l.level);
    };
    // Pending (its vote not counted yet) and a request that is gone: expected for a wake-up, a
    // wake's run or an earlier version's wake-up job (`-w<nonce>`).
    expect(await levels(() => run(live, id, { jobId: wakeRunId(`${id}.1`, 'a1b2c3d4a1b2c3d4', 1) }))).toEqual([20]);
    expect(await levels(() => run(live, id, { jobId: `${id}.1-wa1b2c3d4` }))).toEqual([20]);
    expect(await levels(() => run(live, gone, { jobId: wakeRunId(`${gone}.1`, 'a1b2c3d4a1b2c3d4', 2) }))).toEqual([20]);
    // The same from a try's own job is worth a look.
    expect(await levels(() => run(live, id, { jobId: tryJobId(`${id}.1`, 1) }))).toEqual([40]);
    expect(await levels(() => run(live, gone, { jobId: tryJobId(`${gone}.1`, 1) }))).toEqual([50]);
    expect(sandbox.state.received.length).toBe(before);
    await live.close();
  });
});

/** Runs the tries as the queue would: a new try after a "never sent", up to three. */
async function runLikeTheQueue(service: ServiceClient, id: string): Promise<string> {
  for (;;) {
    const result = await run(service, id);
    if (result !== 'retry') return result;
  }
}

describe('a call that may have reached the service ends unknown, applied once', () => {
  const breakable: Socket[] = [];
  const faults: Array<[string, (s: Awaited<ReturnType<typeof startApplyingService>>) => Answer]> = [
    ['HTTP 500 (JSON)', () => fixed(500, envelopeText(500, 'internal error'))],
    ['HTTP 502 (HTML)', () => fixed(502, '<html><body>Bad Gateway</body></html>', 'text/html')],
    ['HTTP 504 (empty)', () => fixed(504, '')],
    ['HTTP 400 that is not the service envelope', () => fixed(400, '<html>Bad Request</html>', 'text/html')],
    ['malformed JSON', () => fixed(200, '{"success": true, "data": {')],
    ['an answer trickling past the deadline', () => drip(200)],
    ['a 150 MB answer', (s) => huge(s)],
    [
      'EHOSTUNREACH after the body was written',
      () => () => {
        for (const socket of breakable)
          socket.destroy(Object.assign(new Error('connect EHOSTUNREACH'), { code: 'EHOSTUNREACH' }));
      },
    ],
  ];

  it.each(faults)('%s', async (_name, answer) => {
    const s = await startApplyingService();
    s.answer = answer(s);
    const dispatcher = new Agent({
      connect: (opts, callback) => {
        const socket = connect({ host: opts.hostname, port: Number(opts.port) });
        breakable.push(socket);
        socket.once('connect', () => callback(null, socket));
        socket.once('error', (e) => callback(e, null));
      },
    });
    const service = new ServiceClient({
      baseUrl: s.url,
      apiKey: 'k',
      dispatcher,
      connectTimeoutMs: 200,
      responseTimeoutMs: 800,
    });
    try {
      const id = await approvedRequest();
      expect(await runLikeTheQueue(service, id)).toBe('unknown');
      expect(s.applied('/transfer')).toBe(1);
      const record = await store.get(id);
      expect(record?.state).toBe('unknown');
      const thread = outcomeReply(record as NonNullable<typeof record>);
      expect(thread).toContain('outcome unknown');
      expect(thread).toContain("Check the wallet's balances");
      expect(thread).toContain('explorer');
      expect(thread).toContain("the service's records");
      expect(thread).not.toMatch(/try again|new request|resubmit/i);
    } finally {
      breakable.length = 0;
      await service.close();
      await dispatcher.close();
      await s.close();
    }
  });

  it("the service's own 4xx refusal ends failed: nothing moved, called once", async () => {
    const s = await startApplyingService(fixed(422, envelopeText(422, 'insufficient balance')));
    const service = new ServiceClient({ baseUrl: s.url, apiKey: 'k' });
    try {
      const id = await approvedRequest();
      expect(await runLikeTheQueue(service, id)).toBe('failed');
      expect(s.applied('/transfer')).toBe(1);
      // Stored as facts; the sentence is written at the edge.
      const { outcome } = (await store.get(id)) ?? {};
      expect(outcome?.failure).toMatchObject({ class: 'refused', status: 422, serviceMessage: 'insufficient balance' });
      expect(outcomeMessage(outcome)).toBe('The wallet service refused it: “insufficient balance”; nothing moved.');
    } finally {
      await service.close();
      await s.close();
    }
  });
});
