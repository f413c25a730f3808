/**
 * Readiness follows this process's own Redis, quickly: a killed or stalled Redis
 * makes a web process's /readyz 503 within the probe bound (under Kubernetes' 1 s default
 * time-out) and a worker's too, while /livez stays 200; both are ready again when it is back.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_BOUND_MS } from '../../src/metrics/health.js';
import type { Running } from '../../src/rampart.js';
import { composeCheck, dockerfileCheck, runCheck } from '../support/container-checks.js';
import { eventually } from '../support/harness.js';
import { bringBack, usePrivateRedis } from '../support/redis-servers.js';
import { useHarness } from '../support/use-harness.js';

const timed = async (port: number | undefined, path: string) => {
  const started = performance.now();
  const res = await request(`http://127.0.0.1:${port}${path}`);
  const text = await res.body.text();
  return { status: res.statusCode, ms: performance.now() - started, text };
};

describe('probes while Redis is down', () => {
  const server = usePrivateRedis();
  // Only probes here: Slack sends nothing, so the end-of-run Slack checks do not apply.
  const h = useHarness('probes-down', () => ({ REDIS_URL: server.url, ROLE: 'web' }), { healthy: false });
  afterAll(() => bringBack(server)); // a failed test may leave it down; the harness cleans up there
  let worker: Running;
  beforeAll(async () => {
    worker = await h.startAnother({ ROLE: 'worker' });
  });

  const ready = async () =>
    (await timed(h.rampart.port, '/readyz')).status === 200 && (await timed(worker.port, '/readyz')).status === 200;

  it('killed: /readyz 503 at once on the web and the worker, /livez 200, ready again after the restart', async () => {
    expect(await ready()).toBe(true);
    await server.kill();
    const web = await timed(h.rampart.port, '/readyz');
    expect(web.status).toBe(503);
    expect(JSON.parse(web.text)).toEqual({ ready: false, redis: 'down' });
    expect(web.ms).toBeLessThan(1000); // Kubernetes' default probe time-out
    const work = await timed(worker.port, '/readyz');
    expect(work.status).toBe(503);
    expect(JSON.parse(work.text)).toEqual({ ready: false, queues: 'down' });
    expect(work.ms).toBeLessThan(1000);
    const health = await timed(h.rampart.port, '/healthz');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text)).toMatchObject({ ok: false, redis: 'down', workers: 'unknown', freeze: 'unknown' });
    expect(health.ms).toBeLessThan(PROBE_BOUND_MS + 700);
    for (const port of [h.rampart.port, worker.port]) expect((await timed(port, '/livez')).status).toBe(200);
    // The image's check (liveness) passes, so nothing restarts it; compose's (readiness) fails.
    expect(await runCheck(dockerfileCheck(), h.rampart.port)).toBe(0);
    expect(await runCheck(composeCheck(), h.rampart.port)).toBe(1);

    await server.restart();
    await eventually(async () => (await ready()) || undefined, 15_000, 'both ready after the restart');
  });

  it('stalled (SIGSTOP): /readyz 503 within the bound, not a hung probe', async () => {
    server.pause();
    try {
      const web = await timed(h.rampart.port, '/readyz');
      expect(web.status).toBe(503);
      expect(web.ms).toBeLessThan(PROBE_BOUND_MS + 700);
      expect((await timed(h.rampart.port, '/livez')).status).toBe(200);
    } finally {
      server.resume();
    }
    await eventually(async () => (await ready()) || undefined, 15_000, 'both ready after the stall');
  });
});
