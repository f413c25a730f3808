/**
 * Many processes on one Redis: two ROLE=web and two ROLE=worker child
 * processes. Thirty requests are submitted and approved through both web processes, some by
 * concurrent clicks on both at once, and one worker is SIGKILLed midway: every request ends
 * final with exactly one service call, one card and one thread reply.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDriver } from '../../devkit/index.js';
import { APPROVALS, envFor, GENERAL, type Harness, PEOPLE, SIGNING_SECRET } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

interface Child {
  process: ChildProcess;
  port: number;
}

async function spawnRampart(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/rampart-child.ts', JSON.stringify(env)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  const port = Number(/ready (\d+)/.exec(line.toString())?.[1]);
  return { process: child, port };
}

const amountOf = (i: number) => Number((40 + (i + 1) / 100).toFixed(2));

describe('two web and two worker processes on one Redis', () => {
  const h = useHarness('many', { ROLE: 'web' }, { healthy: false }); // Slack talks to the children
  const children: Child[] = [];
  let webs: Harness[] = [];
  beforeAll(async () => {
    // The harness's own process only reads the store; Slack talks to the child web processes.
    // One requester sends all 30: above MAX_OPEN_PER_REQUESTER's default of 20.
    const env = (role: string) =>
      envFor(h.prefix, h.sandbox, h.fake, { ROLE: role, LOG_LEVEL: 'silent', MAX_OPEN_PER_REQUESTER: '100' });
    children.push(
      ...(await Promise.all([
        spawnRampart(env('web')),
        spawnRampart(env('web')),
        spawnRampart(env('worker')),
        spawnRampart(env('worker')),
      ])),
    );
    webs = children.slice(0, 2).map((c) => ({
      ...h,
      driver: new SlackDriver({
        url: `http://127.0.0.1:${c.port}/slack/events`,
        signingSecret: SIGNING_SECRET,
        fake: h.fake,
        defaultChannelId: GENERAL,
      }),
    }));
  }, 60_000);
  afterAll(async () => {
    for (const c of children) c.process.kill('SIGKILL');
  });

  it('30 requests end final, each with one service call, one card and one thread reply', async () => {
    const web = (i: number) => webs[i % 2] as Harness;
    const ids: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const { id } = await flow.postRequest(
        web(i),
        'transfer',
        `${amountOf(i)} base:usdc to ${flow.RECEIVER} from ops for many ${i}`,
      );
      ids.push(id);
    }
    const approve = async (i: number) => {
      const id = ids[i] as string;
      if (i % 3 === 0) {
        // Concurrent clicks on both web processes: one vote counts, one job runs.
        const clicks = [0, 1, 2, 3].map((k) =>
          flow.click(web(k), k % 2 === 0 ? PEOPLE.approver1 : PEOPLE.approver2, id, 'request_approve'),
        );
        for (const ack of await Promise.all(clicks)) expect(ack.status).toBe(200);
      } else {
        expect((await flow.click(web(i + 1), PEOPLE.approver1, id, 'request_approve')).status).toBe(200);
      }
    };
    await Promise.all(ids.slice(0, 15).map((_, i) => approve(i)));
    for (const id of ids.slice(0, 15)) await flow.waitForState(h, id, 'succeeded', 30_000);

    // One worker dies; the other carries on alone. Killed once idle: a worker killed between
    // posting a reply and recording it would post it again on recovery (at-least-once); a
    // worker killed mid-call is the at-most-once and cluster tests' case.
    await flow.quiescent(h, 30_000);
    const killed = children[2] as Child;
    killed.process.kill('SIGKILL');
    await once(killed.process, 'exit');
    await Promise.all(ids.slice(15).map((_, k) => approve(15 + k)));
    for (const id of ids.slice(15)) await flow.waitForState(h, id, 'succeeded', 30_000);

    await flow.quiescent(h, 30_000);
    const calls = flow.serviceCalls(h, '/transfer');
    for (let i = 0; i < 30; i += 1) {
      const id = ids[i] as string;
      expect(
        calls.filter((c) => (c.body as { amount?: number }).amount === amountOf(i)),
        id,
      ).toHaveLength(1);
      expect(
        flow.threadOf(h, id).filter((m) => m.text.includes('succeeded')),
        id,
      ).toHaveLength(1);
    }
    expect(calls).toHaveLength(30);
    // One card per request, whichever process posted it.
    expect(h.fake.messages(APPROVALS)).toHaveLength(30);
  }, 120_000);
});
