/**
 * Recording an outcome-unknown payment, through signed Slack requests: a service that applies the
 * transfer and then answers 500 leaves it unknown; an approver other than the requester records
 * paid (succeeded, velocity kept) with a hash valid for the chain, or proposes not-paid (nothing
 * changes until a second approver confirms); every wrong input gets one sentence; the unknown
 * stays in the history.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import {
  type ApplyingService,
  envelopeText,
  fixed,
  forward,
  passOn,
  startApplyingService,
} from '../support/applying-service.js';
import { APPROVALS, blocksText, eventually, PEOPLE, REDIS_URL, SERVICE_KEY } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let sandbox: Sandbox;
let service: ApplyingService;
/** While true, a POST /transfer reaches the sandbox (the money moves) and then answers 500. */
let applyThen500 = true;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: SERVICE_KEY, bearerToken: 'test-bearer' });
  service = await startApplyingService(async (req, res, body) => {
    const forwarded = await forward(sandbox.url, req, body);
    if (applyThen500 && req.method === 'POST' && req.url?.startsWith('/transfer'))
      return fixed(500, envelopeText(500, 'Internal error'))(req, res, body);
    passOn(res, forwarded);
  });
});
afterAll(async () => {
  await service.close();
  await sandbox.close();
});
const h = useHarness('resolve', () => ({
  SERVICE_BASE_URL: service.url,
  VELOCITY_LIMITS: 'ops:USDC=100/24h',
  // The requester of the self-resolution case is an approver too.
  APPROVERS: `${PEOPLE.approver1},${PEOPLE.approver2},${PEOPLE.requester}`,
}));

const resolve = (user: string, text: string) => h.driver.command(user, '/resolve', text);
/** The one private answer a /resolve got (its ack, or the ephemeral after it). */
async function answerTo(user: string, text: string): Promise<string> {
  const before = h.fake.ephemerals(user).length;
  const ack = await resolve(user, text);
  expect(ack.status).toBe(200);
  const acked = (ack.body as { text?: string } | undefined)?.text;
  if (acked) return acked;
  return (await eventually(() => h.fake.ephemerals(user)[before], 10_000, '/resolve answer')).text;
}

async function unknownTransfer(amount: number, reason: string): Promise<string> {
  const { id } = await flow.postTransfer(h, amount, reason);
  await flow.click(h, PEOPLE.approver1, id, 'request_approve');
  await flow.waitForState(h, id, 'unknown');
  await eventually(() => flow.threadOf(h, id).find((m) => m.text.includes('outcome unknown')), 10_000, 'unknown reply');
  return id;
}

const ledgerHas = async (id: string) => {
  const redis = new Redis(REDIS_URL);
  try {
    return (
      (await redis.zscore(h.rampart.deps.controls.ledgerKey({ walletId: 'wal_ops_7f3a', code: 'USDC' }), id)) !== null
    );
  } finally {
    await redis.quit();
  }
};

describe('/resolve', () => {
  it('a not-paid alone changes nothing: it stays unknown, its velocity counted, nobody is told to request it again', async () => {
    const id = await unknownTransfer(60, 'vendor invoice 201');
    expect(service.applied('/transfer')).toBe(1);
    const unknownReply = flow.threadOf(h, id).find((m) => m.text.includes('outcome unknown'))?.text ?? '';
    expect(unknownReply).toContain(`/resolve ${id}.1`);
    expect(await ledgerHas(id)).toBe(true);

    // A bare request id never takes effect.
    expect(await answerTo(PEOPLE.approver1, `${id} not-paid no debit on ops`)).toContain(
      `Name the execution, e.g. ${id}.1`,
    );
    const answer = await answerTo(PEOPLE.approver1, `${id}.1 not-paid no debit on ops; the service has no record`);
    expect(answer).toContain(`You proposed that ${id}.1 was not paid. Nothing has changed yet`);
    expect(answer).not.toMatch(/request it again/);
    // A second proposal while one waits is pointed at the pending one.
    expect(await answerTo(PEOPLE.approver2, `${id}.1 not-paid nothing there`)).toContain('already proposed');
    await flow.quiescent(h);
    expect((await h.rampart.deps.store.get(id))?.state).toBe('unknown');
    expect(await ledgerHas(id)).toBe(true);
    const events = (await h.rampart.deps.store.history(id)).map((e) => e.event);
    expect(events).toContain('not-paid-proposed');
    expect(events).not.toContain('failed');
    // The thread mentions who could confirm (not the proposer, not the requester).
    const asked = await eventually(
      () => flow.threadOf(h, id).find((m) => m.text.includes('proposed that')),
      10_000,
      'proposal reply',
    );
    expect(asked.text).toContain(`<@${PEOPLE.approver2}>`);
    expect(asked.text).not.toContain(`<@${PEOPLE.requester}>`);
    await flow.quiescent(h);
  });

  it('Record outcome… → the form restates the payment → a proposal → a second approver confirms on the card → failed, velocity released once', async () => {
    const id = await unknownTransfer(15, 'vendor invoice 203');
    expect(await ledgerHas(id)).toBe(true);
    const card = flow.currentCard(h, id);
    await h.driver.click(PEOPLE.approver1, {
      action_id: 'outcome_record',
      block_id: `outcome-${id}.1`,
      message: card,
      channel: APPROVALS,
    });
    // Opened at once, then updated with the balances read now.
    const form = await eventually(
      () =>
        h.fake
          .views(PEOPLE.approver1)
          .filter((v) => v.callback_id === 'record_outcome')
          .find((v) => /• Now: [\d,.]+ USDC/.test(blocksText(v))),
      10_000,
      'Record outcome form with a reading now',
    );
    const text = blocksText(form);
    expect(text).toContain(`${id}.1`);
    expect(text).toContain('*Amount:* 15.00 USDC on Base');
    expect(text).toContain(flow.RECEIVER);
    expect(text).toContain(`https://basescan.org/address/${flow.RECEIVER}`);
    expect(text).toMatch(/look for an incoming 15\.00 USDC from ops after \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(text).toContain(`<@${PEOPLE.approver1}>`);
    expect(text).toContain((await h.rampart.deps.store.executions.get(`${id}.1`))?.sealHash.slice(0, 10));
    expect(text).toContain('• When it became unknown:');
    // Never pre-selected.
    expect(JSON.stringify(form.blocks)).not.toContain('initial_option');
    const noWhy = await h.driver.submitView(PEOPLE.approver1, form, { verdict: 'not-paid' });
    expect(noWhy.body).toMatchObject({
      response_action: 'errors',
      errors: { why: expect.stringContaining('Say why') },
    });
    const proposed = await h.driver.submitView(PEOPLE.approver1, form, {
      verdict: 'not-paid',
      why: 'no incoming 15 USDC on the receiver page',
    });
    expect(proposed.body).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(proposed.body)).toContain('Nothing has changed yet');
    const withConfirm = await eventually(
      () => (blocksText(flow.currentCard(h, id)).includes('Confirm not paid') ? flow.currentCard(h, id) : undefined),
      10_000,
      'Confirm not paid on the card',
    );
    expect((await h.rampart.deps.store.get(id))?.state).toBe('unknown');
    // The proposer cannot confirm their own proposal.
    const before = h.fake.ephemerals(PEOPLE.approver1).length;
    await h.driver.click(PEOPLE.approver1, {
      action_id: 'outcome_confirm',
      block_id: `outcome-${id}.1`,
      message: withConfirm,
      channel: APPROVALS,
    });
    const refused = await eventually(() => h.fake.ephemerals(PEOPLE.approver1)[before], 10_000, 'refusal');
    expect(refused.text).toContain('a different approver must confirm it');
    expect((await h.rampart.deps.store.get(id))?.state).toBe('unknown');
    expect(await ledgerHas(id)).toBe(true);
    // A second approver confirms (twice at once: one move).
    await Promise.all([
      h.driver.click(PEOPLE.approver2, {
        action_id: 'outcome_confirm',
        block_id: `outcome-${id}.1`,
        message: withConfirm,
        channel: APPROVALS,
      }),
      h.driver.click(PEOPLE.approver2, {
        action_id: 'outcome_confirm',
        block_id: `outcome-${id}.1`,
        message: withConfirm,
        channel: APPROVALS,
      }),
    ]);
    await flow.waitForState(h, id, 'failed');
    expect(await ledgerHas(id)).toBe(false);
    const history = await h.rampart.deps.store.history(id);
    expect(history.filter((e) => e.event === 'failed')).toHaveLength(1);
    expect(history.find((e) => e.event === 'failed')?.by).toBe(PEOPLE.approver2);
    const reply = await eventually(() => flow.threadOf(h, id).find((m) => m.text.includes(':x:')), 10_000, 'reply');
    expect(reply.text).toContain(`<@${PEOPLE.approver1}> proposed it and <@${PEOPLE.approver2}> confirmed it`);
    expect(reply.text).not.toMatch(/request it again|new request/);
    await flow.quiescent(h);
  });

  it('records paid: succeeded with the hash, velocity kept, thread and card updated', async () => {
    const id = await unknownTransfer(20, 'vendor invoice 202');
    const hash = `0x${'5e'.repeat(32)}`;
    // `/resolve R-n` alone opens the same form; it takes effect only when submitted.
    expect((await resolve(PEOPLE.approver2, id)).status).toBe(200);
    await eventually(
      () =>
        h.fake
          .views(PEOPLE.approver2)
          .find((v) => v.callback_id === 'record_outcome' && blocksText(v).includes(`${id}.1`)),
      10_000,
      'the form from /resolve',
    );
    expect((await h.rampart.deps.store.get(id))?.state).toBe('unknown');
    expect(await answerTo(PEOPLE.approver2, `${id}.1 paid 0xabc`)).toContain('is not a Base transaction hash');
    expect(await answerTo(PEOPLE.approver2, `${id}.1 paid ${hash}`)).toContain('recorded as paid');
    await flow.waitForState(h, id, 'succeeded');
    expect(await ledgerHas(id)).toBe(true);
    const record = await h.rampart.deps.store.get(id);
    expect(record?.outcome).toMatchObject({ hash, resolution: { by: PEOPLE.approver2, paid: true } });
    const reply = await eventually(
      () => flow.threadOf(h, id).find((m) => m.text.includes('was paid')),
      10_000,
      'reply',
    );
    expect(reply.text).toContain(`<@${PEOPLE.approver2}> recorded it`);
    expect(blocksText(flow.currentCard(h, id))).toContain('recorded as paid by');
    const events = (await h.rampart.deps.store.history(id)).map((e) => e.event);
    expect(events.slice(-2)).toEqual(['unknown', 'succeeded']);
    await flow.quiescent(h);
  });

  it('answers every wrong input with one sentence and changes nothing', async () => {
    const { id } = await flow.postTransfer(h, 5, 'own request');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'unknown');
    const cases: [string, string, string][] = [
      [PEOPLE.requester, `${id}.1 paid 0xabcdef12`, 'You requested'],
      [PEOPLE.outsider, `${id}.1 paid 0xabcdef12`, 'Only approvers can resolve'],
      [PEOPLE.approver1, 'R-99999.1 paid 0xabcdef12', 'There is no request R-99999'],
      [PEOPLE.approver1, `${id}.2 paid 0xabcdef12`, `There is no request ${id}.2`],
      [PEOPLE.approver1, `${id}.1 paid`, 'Add the transaction hash'],
      [PEOPLE.approver1, `${id}.1 not-paid`, 'Say why'],
      [PEOPLE.approver1, `${id}.1 maybe`, 'neither paid nor not-paid'],
      [PEOPLE.approver1, 'R-1#1 paid 0xabcdef12', 'is not a request id'],
      [PEOPLE.approver1, `${id}.1 paid <script>`, 'is not a hash or reference'],
      [PEOPLE.approver1, `${id}.1 paid 0xabc`, 'is not a Base transaction hash'],
      [PEOPLE.approver1, `${id} paid ${'0x'.padEnd(66, 'a')}`, `Name the execution, e.g. ${id}.1`],
    ];
    for (const [user, text, expected] of cases) {
      const answer = await answerTo(user, text);
      expect(answer, text).toContain(expected);
      expect(answer.split(/(?<=\.) /).length, answer).toBeLessThanOrEqual(2);
      expect(answer).not.toMatch(/at \w+ \(|\{"/);
    }
    expect((await h.rampart.deps.store.get(id))?.state).toBe('unknown');
    const help = await resolve(PEOPLE.approver1, 'help');
    expect((help.body as { text?: string }).text).toContain('/resolve R-1234.1 paid');
    expect((help.body as { text?: string }).text).not.toMatch(/requested again/);
    await flow.quiescent(h);
  });

  it('refuses an execution that is not unknown', async () => {
    applyThen500 = false;
    const { id } = await flow.postTransfer(h, 1, 'fine');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    applyThen500 = true;
    expect(await answerTo(PEOPLE.approver2, `${id}.1 not-paid it looked wrong`)).toContain(
      `${id}.1 is already recorded as succeeded; only an outcome-unknown payment can be resolved`,
    );
    expect((await h.rampart.deps.store.get(id))?.state).toBe('succeeded');
    await flow.quiescent(h);
  });
});
