/**
 * Durable before the call, on loopback: a primary and a replica (private
 * redis-servers). With the replica running, WAIT 1 is acknowledged and the call is made once;
 * with the replica paused (SIGSTOP) nothing acknowledges the start, so the call is not made, the
 * execution is queued again, and the thread says so; once the replica runs again the next try
 * makes the call, once.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, PEOPLE } from '../support/harness.js';
import { type RedisServer, startRedisServer } from '../support/redis-servers.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let primary: RedisServer;
let replica: RedisServer;

async function replicationUp(): Promise<void> {
  const p = new Redis(primary.url);
  const r = new Redis(replica.url);
  try {
    await eventually(
      async () =>
        /connected_slaves:1/.test(await p.info('replication')) &&
        /master_link_status:up/.test(await r.info('replication')),
      15_000,
      'the replica to follow the primary',
    );
  } finally {
    p.disconnect();
    r.disconnect();
  }
}

beforeAll(async () => {
  primary = await startRedisServer();
  replica = await startRedisServer({ extra: ['--replicaof', '127.0.0.1', String(primary.port)] });
  await replicationUp();
}, 60_000);
afterAll(async () => {
  await replica?.stop();
  await primary?.stop();
});
const h = useHarness('durable', () => ({ REDIS_URL: primary.url, REDIS_WAIT_MS: '300' }));
// Runs before the harness's checks and close (after-hooks run in reverse): a paused replica would stall them.
afterAll(() => replica?.resume());

const callsFor = (amount: number) =>
  h.sandbox.state.received.filter((r) => r.path === '/transfer' && (r.body as { amount?: number }).amount === amount);

describe('WAIT 1 before the call', () => {
  it('with the replica running, the start is acknowledged and the call is made once', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `11 base:usdc to ${flow.RECEIVER} from ops for replicated`);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    await flow.quiescent(h);
    expect(callsFor(11)).toHaveLength(1);
  });

  it('with the replica paused, nothing is sent, the execution is queued again and the thread says so; then it runs once', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `12 base:usdc to ${flow.RECEIVER} from ops for unreplicated`);
    replica.pause();
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const note = await eventually(
      () => flow.threadOf(h, id).find((m) => m.text.includes('was not sent')),
      15_000,
      'the not-sent reply',
    );
    expect(note.text).toContain('no Redis replica confirmed its start');
    expect(note.text).not.toMatch(/request it again|resubmit/i);
    const record = await h.rampart.deps.store.get(id);
    expect(record?.executions[0]).toMatchObject({ state: 'queued', tries: 1 });
    expect(callsFor(12)).toHaveLength(0);
    const history = await h.rampart.deps.store.history(id);
    expect(history.at(-1)?.detail).toContain('Redis replica did not acknowledge');

    replica.resume();
    await flow.waitForState(h, id, 'succeeded');
    await flow.quiescent(h);
    expect(callsFor(12)).toHaveLength(1);
    expect((await h.rampart.deps.store.get(id))?.executions[0]?.tries).toBe(2);
  });
});
