/**
 * The HTTP API end to end: a transfer requested over the API appears as a card in
 * the fake Slack, its owner cannot approve it, an approver does (signed Slack requests), it runs
 * once and reads back over the API as done with its transaction; no API key reaches a log line.
 * And a web process killed between the create and its answer (a child process), then retried:
 * one request, one card.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newKey, transfer, useApi } from '../api/support.js';
import { APPROVALS, blocksText, envFor, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let clock = Date.now();
const tokens: string[] = [];
const h = useHarness('api-e2e', { API_RATE: 'off' });
const api = useApi(h, { now: () => clock });
beforeAll(async () => {
  await h.rampart.deps.store.addPayee('base', flow.RECEIVER);
});
afterAll(() => {
  for (const token of tokens) expect(h.logs.text).not.toContain(token.slice(17));
});

const cardsFor = (id: string) => h.fake.messages(APPROVALS).filter((m) => blocksText(m).includes(`${id}"`)).length;
const requestCount = async () => (await h.rampart.deps.store.recentIds(1000)).length;

describe('a transfer requested over the API', () => {
  it('is approved in Slack (never by its key’s owner), runs once and reads back as done', async () => {
    const { token } = await newKey(api, { name: 'erp', owner: PEOPLE.approver1 });
    tokens.push(token);
    const created = await api.call('POST', '/transfers', {
      token,
      idempotencyKey: 'e2e-1',
      body: transfer({ amount: '42.5', reason: 'invoice 9001' }),
    });
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    const card = await eventually(() => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(`${id}"`)));
    expect(blocksText(card)).toContain(`*Requested via API key* *erp* (owner <@${PEOPLE.approver1}>)`);

    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(
      () => flow.ephemeralText(h, PEOPLE.approver1).includes('you cannot approve it'),
      10_000,
      'refusal',
    );
    expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);

    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    await flow.quiescent(h);
    const calls = flow.serviceCalls(h, '/transfer').filter((c) => JSON.stringify(c.body).includes('42.5'));
    expect(calls).toHaveLength(1);

    const read = await api.call('GET', `/requests/${id}`, { token });
    expect(read.json).toMatchObject({ id, state: 'done', amount: '42.5', requester: PEOPLE.approver1 });
    const [execution] = read.json.executions as Array<Record<string, string>>;
    expect(execution).toMatchObject({ id: `${id}.1`, state: 'succeeded' });
    expect(execution?.hash).toBeTruthy();
    expect(execution?.link).toContain(execution?.hash ?? 'none');
    expect((read.json.history as Array<{ event: string }>).map((e) => e.event)).toEqual(
      expect.arrayContaining(['requested', 'approved', 'executing', 'succeeded']),
    );
    expect(cardsFor(id)).toBe(1);
  });
});

describe('a process killed between the create and its answer', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('leaves one request, which the retry answers (replayed) and one card announces', async () => {
    clock = Date.now(); // the child's clock is the real one
    const env = envFor(h.prefix, h.sandbox, h.fake, { API_RATE: 'off', LOG_LEVEL: 'silent', KILL_AFTER_CREATE: '1' });
    child = spawn(process.execPath, ['--import', 'tsx', 'test/api/api-child.ts', JSON.stringify(env)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const port = Number(/ready (\d+)/.exec(line.toString())?.[1]);
    const { token } = await newKey(api);
    tokens.push(token);
    const before = await requestCount();
    const exited = once(child, 'exit');
    const attempt = { token, idempotencyKey: 'crash-1', body: transfer({ amount: '29' }) };
    await expect(call(`http://127.0.0.1:${port}/api/v1`, 'POST', '/transfers', attempt)).rejects.toThrow();
    await exited;
    expect(await requestCount()).toBe(before + 1);
    const retried = await api.call('POST', '/transfers', attempt);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await requestCount()).toBe(before + 1);
    const id = String(retried.json.id);
    await eventually(() => cardsFor(id) > 0, 10_000, 'card');
    const again = await api.call('POST', '/transfers', attempt);
    expect(again.json.id).toBe(id);
    await flow.quiescent(h);
    expect(cardsFor(id)).toBe(1);
    expect(await requestCount()).toBe(before + 1);
  }, 60_000);
});
