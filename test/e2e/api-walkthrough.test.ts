/**
 * The HTTP API as docs/http-api.md shows it: the walkthrough's calls and
 * the batch example are read from the page itself and sent over loopback HTTP (the same requests
 * curl sends), the card appears, an approver approves with a signed click (the key's owner
 * cannot), it runs once, and it reads back as done with its executions. Docs and API cannot drift.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ApiScope } from '../../src/domain/api-key.js';
import { newKey, useApi } from '../api/support.js';
import { waitForApproval } from '../support/batches.js';
import { APPROVALS, blocksText, eventually, PEOPLE } from '../support/harness.js';
import { click, ephemeralText, quiescent, serviceCalls, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const DOC = readFileSync(new URL('../../docs/http-api.md', import.meta.url), 'utf8');
// Shell continuation lines joined, so each command is one line.
const LINES = DOC.replaceAll('\\\n', ' ').split('\n');

interface DocCall {
  method: string;
  path: string;
  body: unknown;
  idempotencyKey: string | undefined;
}

function curlOf(line: string): DocCall {
  const path = /"\$BASE([^"]+)"/.exec(line)?.[1];
  if (!path) throw new Error(`no $BASE path in: ${line}`);
  const body = /-d '([^']+)'/.exec(line)?.[1];
  return {
    method: /-X (\w+)/.exec(line)?.[1] ?? 'GET',
    path,
    body: body === undefined ? undefined : (JSON.parse(body) as unknown),
    idempotencyKey: /Idempotency-Key: ([^"$]+)"/.exec(line)?.[1],
  };
}

const section = (title: string) => {
  const start = LINES.findIndex((l) => l.startsWith(`## ${title}`));
  const end = LINES.findIndex((l, i) => i > start && l.startsWith('## '));
  if (start < 0) throw new Error(`docs/http-api.md has no "## ${title}"`);
  return LINES.slice(start, end < 0 ? undefined : end);
};

const h = useHarness('api-walkthrough', { API_RATE: 'off', BATCH_RATE: 'off' });
const api = useApi(h);

/** The walkthrough's key, made with the flags the page gives `rampart api-keys create`. */
async function walkthroughKey(name: string) {
  const create = section('Walkthrough').find((l) => l.includes('api-keys create')) ?? '';
  const owner = /--owner (\S+)/.exec(create)?.[1] ?? '';
  expect(owner).toBe(PEOPLE.requester);
  return newKey(api, {
    name,
    owner,
    scopes: (/--scopes (\S+)/.exec(create)?.[1] ?? '').split(',') as ApiScope[],
    limits: { allowNewDestinations: create.includes('--allow-new-destinations') },
  });
}

const send = (token: string, c: DocCall, id = '') =>
  api.call(c.method, c.path.replace('$ID', id), {
    token,
    ...(c.body === undefined ? {} : { body: c.body }),
    ...(c.method === 'POST' ? { idempotencyKey: c.idempotencyKey ?? `doc-${c.path}` } : {}),
  });

const cardOf = (id: string) =>
  eventually(() => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(`${id}"`)));

/** The key's owner's click counts for nothing; an approver's signed click approves. */
async function approve(id: string) {
  // The walkthrough's owner is the workbench's requester, who is no approver either.
  const refusals = () => ephemeralText(h, PEOPLE.requester).split(/not an approver|cannot approve/).length;
  const told = refusals();
  await click(h, PEOPLE.requester, id, 'request_approve');
  await eventually(() => refusals() > told || undefined, 10_000, 'the owner to be refused');
  expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);
  await click(h, PEOPLE.approver1, id, 'request_approve');
}

describe('the walkthrough in docs/http-api.md', () => {
  it('creates a transfer that becomes a card, is approved in Slack and reads back as succeeded', async () => {
    const { token } = await walkthroughKey('erp');
    const calls = section('Walkthrough')
      .filter((l) => l.includes('curl -'))
      .map(curlOf);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /transfers', 'GET /requests/$ID']);
    const [create, read] = calls as [DocCall, DocCall];
    const created = await send(token, create);
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    const card = blocksText(await cardOf(id));
    expect(card).toContain(`*Requested via API key* *erp* (owner <@${PEOPLE.requester}>)`);
    expect(card).toContain('*new destination via API*');
    await approve(id);
    await waitForState(h, id, 'succeeded');
    await quiescent(h);
    expect(serviceCalls(h, '/transfer').filter((c) => JSON.stringify(c.body).includes('"amount":250'))).toHaveLength(1);
    const back = await send(token, read, id);
    expect(back.json).toMatchObject({ id, state: 'done', amount: '250', execution_counts: { succeeded: 1 } });
    const [execution] = back.json.executions as Array<{ state: string; hash: string; link: string }>;
    expect(execution?.state).toBe('succeeded');
    expect(execution?.link).toContain(execution?.hash);
  });

  it('requests the batch example, approved once in Slack, every row run once, read back with its executions', async () => {
    const { token } = await walkthroughKey('erp-batch');
    const line = LINES.find((l) => l.includes('"$BASE/batches"')) ?? '';
    const created = await send(token, curlOf(line));
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    expect(id).toMatch(/^B-\d+$/);
    const card = blocksText(await cardOf(id));
    expect(card).toContain(`*Requested via API key* *erp-batch* (owner <@${PEOPLE.requester}>)`);
    const before = serviceCalls(h, '/transfer').length;
    await approve(id);
    await waitForApproval(h, id, 'done');
    await quiescent(h);
    const sent = serviceCalls(h, '/transfer').slice(before);
    expect(sent.map((c) => (c.body as { amount: number }).amount)).toEqual([120, 80.5]);
    const back = await api.call('GET', `/requests/${id}`, { token });
    expect(back.json).toMatchObject({
      id,
      state: 'done',
      amount: '200.5',
      execution_count: 2,
      execution_counts: { succeeded: 2, queued: 0 },
      executions_next_cursor: null,
    });
    const executions = back.json.executions as Array<Record<string, unknown>>;
    expect(executions.map((e) => [e.id, e.state, (e.row as { reference: string }).reference])).toEqual([
      [`${id}.1`, 'succeeded', 'INV-118'],
      [`${id}.2`, 'succeeded', 'INV-119'],
    ]);
    for (const e of executions) expect(String(e.link)).toContain(String(e.hash));
    expect((back.json.history as Array<{ execution?: string }>).some((e) => e.execution === `${id}.2`)).toBe(true);
  });
});
