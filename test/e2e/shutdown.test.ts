/**
 * SIGTERM shuts down in order without dropping work: a worker process asked to stop
 * while a money call is out lets that call finish and records its outcome before exiting.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, expect, it } from 'vitest';
import { envFor, eventually, PEOPLE } from '../support/harness.js';
import { postRequest, RECEIVER, serviceCalls, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('shutdown', { ROLE: 'web' });
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
});

it('finishes the running transfer, records it, then exits 0 on SIGTERM', async () => {
  const env = {
    ...envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker', LOG_LEVEL: 'info' }),
    PATH: process.env.PATH ?? '',
  };
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const { id, card } = await postRequest(h, 'transfer', `21 base:usdc to ${RECEIVER} from ops for shutdown`);
  h.sandbox.faults.latency(1500);
  await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: card });
  await waitForState(h, id, 'executing');
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  child = undefined;
  expect(code).toBe(0);
  expect(out).toContain('shutting down');
  h.sandbox.faults.reset();
  expect((await h.rampart.deps.store.get(id))?.state).toBe('succeeded');
  expect(serviceCalls(h, '/transfer')).toHaveLength(1);
  await eventually(
    async () => ((await h.rampart.deps.store.get(id))?.outcome?.hash ? true : undefined),
    5000,
    'outcome recorded',
  );
});
