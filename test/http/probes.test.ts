/**
 * The probes on Rampart's own server tell the truth without taking Rampart down: /livez,
 * /readyz for this process's own job only, /healthz's detail at 200 — one service 500 and a
 * missing worker never turn a process unready.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Running } from '../../src/rampart.js';
import { ControlStore } from '../../src/store/controls.js';
import { composeCheck, dockerfileCheck, runCheck } from '../support/container-checks.js';
import { eventually, PEOPLE, SECRETS } from '../support/harness.js';
import { useHarness } from '../support/use-harness.js';

const probe = async (port: number | undefined, path: string) => {
  const res = await request(`http://127.0.0.1:${port}${path}`);
  const text = await res.body.text();
  return { status: res.statusCode, type: String(res.headers['content-type']), text, body: parse(text) };
};
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

describe('the probes of a process of every role (ROLE=all)', () => {
  const h = useHarness('probes', {}, { healthy: false });

  it('/livez: 200 while the event loop runs, reading nothing', async () => {
    expect(await probe(h.rampart.port, '/livez')).toMatchObject({ status: 200, text: 'live\n' });
  });

  it('/readyz: 200 when its own Redis connections answer', async () => {
    const r = await probe(h.rampart.port, '/readyz');
    expect(r).toMatchObject({ status: 200, type: 'application/json' });
    expect(r.body).toEqual({ ready: true, redis: 'up', queues: 'up' });
  });

  it("the Dockerfile's HEALTHCHECK asks /livez and docker-compose's asks /readyz, and both pass", async () => {
    expect(dockerfileCheck()).toContain('/livez');
    expect(composeCheck()).toContain('/readyz');
    expect(await runCheck(dockerfileCheck(), h.rampart.port)).toBe(0);
    expect(await runCheck(composeCheck(), h.rampart.port)).toBe(0);
  });

  it('/healthz: the detail as JSON, with no secret and no person in it', async () => {
    const r = await probe(h.rampart.port, '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: true,
      ready: true,
      role: 'all',
      redis: 'up',
      queues: 'up',
      service: { state: 'unknown' },
      workers: { alive: 1, newestHeartbeatSecondsAgo: expect.any(Number) },
      freeze: { frozen: false },
      sandbox: false,
    });
    const jobs = (r.body as { queueJobs: Record<string, unknown> }).queueJobs;
    expect(jobs.execute).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    for (const secret of [...SECRETS, h.prefix, 'redis://']) expect(r.text).not.toContain(secret);
  });

  it('stays 200 (ready, and /healthz too) after a service 500; /healthz says the service is down', async () => {
    h.sandbox.faults.failNext('/rate/onramp', 3, { status: 500, body: 'json' }); // every try of the read
    const before = h.fake.ephemerals(PEOPLE.requester).length;
    await h.driver.command(PEOPLE.requester, '/rate', '');
    await eventually(() => h.fake.ephemerals(PEOPLE.requester).length > before, 8000, 'the /rate answer');
    const health = await probe(h.rampart.port, '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true, service: { state: 'down', lastCallSecondsAgo: expect.any(Number) } });
    expect((await probe(h.rampart.port, '/readyz')).status).toBe(200);
  });

  it('shows the freeze without who or why', async () => {
    const controls = new ControlStore(h.rampart.redis, h.prefix);
    const at = Date.now() - 60_000;
    await controls.setFreeze({ by: PEOPLE.approver1, at, reason: 'a reason only people should read' });
    try {
      const r = await probe(h.rampart.port, '/healthz');
      expect(r.status).toBe(200);
      const freeze = (r.body as { freeze: { frozen: boolean; sinceSecondsAgo: number } }).freeze;
      expect(freeze.frozen).toBe(true);
      expect(freeze.sinceSecondsAgo).toBeGreaterThanOrEqual(60);
      expect(r.text).not.toContain(PEOPLE.approver1);
      expect(r.text).not.toContain('a reason only');
    } finally {
      await h.rampart.redis.del(controls.freezeKey);
    }
  });
});

describe('a fresh ROLE=web process with no worker anywhere', () => {
  const h = useHarness('probes-web', { ROLE: 'web' }, { healthy: false });

  it('is ready at once, and /healthz says 200 with no worker alive', async () => {
    const ready = await probe(h.rampart.port, '/readyz');
    expect(ready).toMatchObject({ status: 200, body: { ready: true, redis: 'up' } });
    expect(ready.body).not.toHaveProperty('queues'); // a web process has no queues of its own to work
    const health = await probe(h.rampart.port, '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true, role: 'web', workers: { alive: 0 } });
  });

  it("puts the security headers on Bolt's answers too, and refuses an over-limit body before Bolt reads it", async () => {
    const unsigned = await request(`http://127.0.0.1:${h.rampart.port}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'command=%2Frate',
    });
    await unsigned.body.text();
    expect(unsigned.statusCode).toBe(401); // Bolt's own signature check
    expect(unsigned.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    expect(unsigned.headers['x-powered-by']).toBeUndefined();
    const huge = await request(`http://127.0.0.1:${h.rampart.port}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `text=${'x'.repeat(1024 * 1024)}`,
    });
    expect(huge.statusCode).toBe(413);
    await huge.body.text();
  });

  it('serves no probe or metric on POST, and Slack only at POST /slack/events', async () => {
    const res = await request(`http://127.0.0.1:${h.rampart.port}/readyz`, { method: 'POST', body: '' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    await res.body.text();
    expect((await probe(h.rampart.port, '/slack/events')).status).toBe(405);
  });

  it("a worker's readiness is its queues' connection, never the web's", async () => {
    const worker: Running = await h.startAnother({ ROLE: 'worker' });
    const ready = await probe(worker.port, '/readyz');
    expect(ready).toMatchObject({ status: 200, body: { ready: true, queues: 'up' } });
    expect(ready.body).not.toHaveProperty('redis');
    expect((await probe(worker.port, '/slack/events')).status).toBe(404);
  });
});

describe('Socket Mode (SLACK_APP_TOKEN): no Slack route, the probes and /metrics still served', () => {
  const h = useHarness('probes-socket', {}, { socketMode: true, healthy: false });

  it('answers the probes and /metrics on PORT, and has nothing at /slack/events', async () => {
    await eventually(() => ((h.fake.socketMode?.connected ?? 0) > 0 ? true : undefined), 10_000, 'socket connection');
    expect(h.rampart.port).toBeGreaterThan(0);
    expect((await probe(h.rampart.port, '/livez')).status).toBe(200);
    expect(await probe(h.rampart.port, '/readyz')).toMatchObject({ status: 200, body: { ready: true } });
    expect((await probe(h.rampart.port, '/healthz')).status).toBe(200);
    const metrics = await probe(h.rampart.port, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('rampart_workers_alive 1');
    const signed = await request(`http://127.0.0.1:${h.rampart.port}/slack/events`, { method: 'POST', body: 'x=1' });
    expect(signed.statusCode).toBe(404);
    await signed.body.text();
  });
});
