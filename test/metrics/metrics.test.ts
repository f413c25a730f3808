/**
 * GET /metrics after a scripted journey: one transfer succeeds, one fails, one ends
 * unknown, one is denied — the counters say exactly that, the histograms have observations, and
 * no label carries an id, an amount, an address or a person.
 */

import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventually, PEOPLE } from '../support/harness.js';
import { click, postRequest, RECEIVER, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const TOKEN = 'a-metrics-token-16+';
const h = useHarness('metrics', { SERVICE_RESPONSE_TIMEOUT: '700ms', METRICS_TOKEN: TOKEN });
const scrape = async (
  port: number | undefined,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
) => {
  const res = await request(`http://127.0.0.1:${port}/metrics`, { headers });
  return { status: res.statusCode, type: String(res.headers['content-type']), text: await res.body.text() };
};

/** `name{labels} value` lines of one metric, as label text → value. */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m?.[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}

async function deny(id: string) {
  const seen = new Set(h.fake.views(PEOPLE.approver2).map((v) => v.id));
  await click(h, PEOPLE.approver2, id, 'request_deny');
  const modal = await eventually(
    () => h.fake.views(PEOPLE.approver2).find((v) => v.callback_id === 'deny_modal' && !seen.has(v.id)),
    5000,
    'deny modal',
  );
  await h.driver.submitView(PEOPLE.approver2, modal, { reason: 'wrong vendor' });
  await waitForState(h, id, 'denied');
}

describe('GET /metrics', () => {
  it('counts exactly one succeeded, one failed, one unknown and one denied request', async () => {
    const ok = await postRequest(h, 'transfer', `21 base:usdc to ${RECEIVER} from ops for metrics ok`);
    await click(h, PEOPLE.approver1, ok.id, 'request_approve');
    await waitForState(h, ok.id, 'succeeded');

    const refused = await postRequest(h, 'transfer', `22 base:usdc to ${RECEIVER} from ops for metrics refused`);
    h.sandbox.faults.failNext('/transfer', 1, { status: 400, body: 'json' });
    await click(h, PEOPLE.approver1, refused.id, 'request_approve');
    await waitForState(h, refused.id, 'failed');

    const lost = await postRequest(h, 'transfer', `23 base:usdc to ${RECEIVER} from ops for metrics unknown`);
    h.sandbox.faults.hangAfterApply('/transfer');
    await click(h, PEOPLE.approver1, lost.id, 'request_approve');
    await waitForState(h, lost.id, 'unknown');

    const denied = await postRequest(h, 'transfer', `24 base:usdc to ${RECEIVER} from ops for metrics denied`);
    await deny(denied.id);

    const waiting = await postRequest(h, 'transfer', `25 base:usdc to ${RECEIVER} from ops for metrics open`);

    const { status, type, text } = await scrape(h.rampart.port);
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(Object.fromEntries(samples(text, 'rampart_requests_total'))).toEqual({
      '{kind="transfer",state="pending"}': 5,
      '{kind="transfer",state="approved"}': 3,
      '{kind="transfer",state="executing"}': 3,
      '{kind="transfer",state="succeeded"}': 1,
      '{kind="transfer",state="failed"}': 1,
      '{kind="transfer",state="unknown"}': 1,
      '{kind="transfer",state="denied"}': 1,
    });
    expect(samples(text, 'rampart_unknown_outcomes_total').get('')).toBe(1);
    expect(Object.fromEntries(samples(text, 'rampart_requests_open'))).toEqual({
      '{state="pending"}': 1,
      '{state="approved"}': 0,
      '{state="executing"}': 0,
    });
    expect(samples(text, 'rampart_requests_oldest_age_seconds').get('{state="pending"}')).toBeGreaterThanOrEqual(0);

    // Histograms: each money call observed under its outcome, every Slack ack timed.
    const calls = samples(text, 'rampart_service_call_duration_seconds_count');
    expect(calls.get('{operation="transfer",outcome="ok"}')).toBe(1);
    expect(calls.get('{operation="transfer",outcome="refused"}')).toBe(1);
    expect(calls.get('{operation="transfer",outcome="ambiguous"}')).toBe(1);
    const acks = samples(text, 'rampart_slack_ack_duration_seconds_count');
    expect(acks.get('{kind="command"}')).toBe(5);
    expect(acks.get('{kind="view_submission"}')).toBeGreaterThanOrEqual(6);
    expect(acks.get('{kind="action"}')).toBeGreaterThanOrEqual(4);
    expect(h.driver.ackTimes.length).toBe([...acks.values()].reduce((a, b) => a + b, 0));

    const jobs = samples(text, 'rampart_queue_jobs');
    expect([...jobs.keys()].some((k) => k.includes('queue="execute"'))).toBe(true);
    expect(samples(text, 'process_cpu_user_seconds_total').size).toBe(1);

    // No label value holds an id, an amount, an address or a person.
    const labels = text
      .split('\n')
      .filter((l) => l.startsWith('rampart_'))
      .flatMap((l) => [...l.matchAll(/="([^"]*)"/g)].map((m) => m[1] ?? ''));
    expect(labels.length).toBeGreaterThan(0);
    for (const value of labels) {
      expect(value).toMatch(/^([A-Za-z_]+|\+Inf|\d+(\.\d+)?)$/);
      for (const forbidden of [ok.id, waiting.id, RECEIVER, 'wal_ops', ...Object.values(PEOPLE)])
        expect(value).not.toContain(forbidden);
      if (/^\d/.test(value)) expect(text).toContain(`le="${value}"`); // numbers only as bucket bounds
    }
  });

  it('answers a worker-only process on its own port, with its own registry', async () => {
    const worker = await h.startAnother({ ROLE: 'worker' });
    const { status, text } = await scrape(worker.port);
    expect(status).toBe(200);
    expect(samples(text, 'rampart_requests_total').size).toBe(0);
    expect(samples(text, 'rampart_requests_open').get('{state="pending"}')).toBe(1);
    const health = await request(`http://127.0.0.1:${worker.port}/healthz`);
    expect(health.statusCode).toBe(200);
    const body = (await health.body.json()) as { workers: { alive: number } };
    expect(body).toMatchObject({ ok: true, role: 'worker', queues: 'up' });
    expect(body.workers.alive).toBeGreaterThanOrEqual(1);
  });
});

describe('who may scrape (the token is asked of everyone once set)', () => {
  it('asks every caller for METRICS_TOKEN, loopback included', async () => {
    const { mayScrape } = await import('../../src/adapters/http/metrics-route.js');
    const from = (remoteAddress: string, authorization?: string) =>
      ({ socket: { remoteAddress }, headers: authorization ? { authorization } : {} }) as never;
    expect(mayScrape(from('127.0.0.1'), TOKEN)).toBe(false);
    expect(mayScrape(from('::1'), TOKEN)).toBe(false);
    expect(mayScrape(from('10.1.2.3'), TOKEN)).toBe(false);
    expect(mayScrape(from('127.0.0.1', 'Bearer wrong'), TOKEN)).toBe(false);
    expect(mayScrape(from('127.0.0.1', `Bearer ${TOKEN}`), TOKEN)).toBe(true);
    expect(mayScrape(from('10.1.2.3', `Bearer ${TOKEN}`), TOKEN)).toBe(true);
    expect(mayScrape(from('10.1.2.3'), undefined)).toBe(true);
  });

  it('refuses a scrape without the token through a same-host proxy (every peer is 127.0.0.1)', async () => {
    // A reverse proxy on loopback, as a TLS terminator on the same host would be.
    const proxy = createServer((req, res) => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: h.rampart.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const without = await scrape(port, {});
      expect(without.status).toBe(401);
      expect(without.text).toBe('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.\n');
      expect((await scrape(port, { authorization: 'Bearer not-the-token-at-all' })).status).toBe(401);
      expect((await scrape(port)).status).toBe(200);
      // And straight from loopback, no proxy: the same.
      expect((await scrape(h.rampart.port, {})).status).toBe(401);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('the alert rules in docs/http-and-probes.md', () => {
  it('read only metrics Rampart serves, and include "no worker heartbeat" and "service failing"', async () => {
    const docs = readFileSync('docs/http-and-probes.md', 'utf8');
    const blocks = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1] ?? '')
      .filter((b) => b.startsWith('groups:'));
    const rules = blocks.flatMap((b) =>
      (parse(b) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap((g) => g.rules),
    );
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining(['RampartNoWorkerHeartbeat', 'RampartServiceFailing']),
    );
    const { text } = await scrape(h.rampart.port);
    const served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    for (const rule of rules)
      for (const [name] of rule.expr.matchAll(/rampart_[a-z_]+/g))
        expect(served, `${rule.alert} reads ${name}`).toContain(name.replace(/_(bucket|count|sum)$/, ''));
    // The heartbeat gauge says what the harness's worker is doing.
    expect(samples(text, 'rampart_workers_alive').get('')).toBe(1);
  });
});
