/**
 * Batch payouts end to end: a CSV through /batch → one card → one approval → every row
 * called exactly once, in order, one at a time → summary and receipt in the card's thread. And
 * the faults: a 500 after the service applied row 3 (unknown, never re-sent, the batch pauses;
 * resumed, the other rows run once), Stop while paused (unsent rows cancelled, 0 calls), no
 * self-approval, no self-resume.
 */
import { describe, expect, it } from 'vitest';
import { fixed, forward, passOn, pathOf, startApplyingService } from '../support/applying-service.js';
import {
  addresses,
  batchClick,
  submitBatchFile,
  threadFile,
  transfersCsv,
  waitForApproval,
} from '../support/batches.js';
import { blocksText, eventually, type Harness, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness, useStarted } from '../support/use-harness.js';

/** The click's private answer arrives after its ack: wait for it. */
const saidTo = (h: Harness, user: string, text: string) =>
  eventually(
    () => (flow.ephemeralText(h, user).includes(text) ? true : undefined),
    10_000,
    `"${text}" to reach ${user}`,
  );

type TransferBody = { receiver: string; amount: number };
/** The card's notification text: what a lock screen shows. */
const cardTextOf = (h: Harness, id: string): string => flow.currentCard(h, id)?.text ?? '';
const bodies = (calls: { body: unknown }[]) => calls.map((c) => c.body as TransferBody);

describe('a 20-row transfers file', () => {
  const h = useHarness('batch-run', { BATCH_RATE: 'off' });

  it('becomes one card and one approval, and every row is called exactly once, in order', async () => {
    const receivers = addresses(20);
    const amounts = receivers.map((_, i) => i + 1);
    // An approver asks, so the self-approval check is what refuses their own click.
    const id = await submitBatchFile(h, transfersCsv(receivers, amounts), PEOPLE.approver2);
    expect(id).toMatch(/^B-\d+$/);
    const card = blocksText(flow.currentCard(h, id));
    for (const line of [
      'Batch of transfers',
      '*Rows:* 20',
      '*Total:* 210.00 USDC',
      'row 21, 20.00 USDC',
      'Approval hash',
    ])
      expect(card).toContain(line);
    expect(card).toContain('*Available now:* 120,000.50 USDC → *after this batch:* 119,790.50 USDC');
    expect(card).toContain('row 2 · 0xaaaa…a3e9 · 1.00 USDC · INV-1');
    expect(card).toContain('…and 10 more');
    // Nobody was paid before: every row is a new destination.
    expect(card).toContain('*New destinations:* all 20 rows pay an address Rampart has never paid');
    // The full rows, as approved, in the card's thread.
    const rows = await eventually(() => threadFile(h, id, `${id}-rows.csv`), 10_000, 'the rows file');
    expect(rows.trim().split('\r\n')).toHaveLength(21);
    expect(rows).toContain(`21,${receivers[19]},20,INV-20`);

    // No self-approval: the requester's click counts for nothing.
    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    await saidTo(h, PEOPLE.approver2, `You requested ${id}, so you cannot approve it`);
    expect(blocksText(flow.currentCard(h, id))).toContain(
      `Run batch of 20 transfers, 210.00 USDC (Base) in total from ops, 20 rows one at a time?`,
    );
    expect((await h.rampart.deps.store.get(id))?.approvalState).toBe('pending');

    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const done = await waitForApproval(h, id, 'done');
    expect(done.counts).toMatchObject({ succeeded: 20, failed: 0, unknown: 0, cancelled: 0 });
    await flow.quiescent(h);
    const sent = bodies(flow.serviceCalls(h, '/transfer'));
    expect(sent.map((b) => [b.receiver, b.amount])).toEqual(receivers.map((r, i) => [r, amounts[i]]));

    const thread = flow
      .threadOf(h, id)
      .map((m) => m.text)
      .join('\n');
    expect(thread).toContain(`Batch ${id} finished. Paid: all 20 (210.00 USDC). Total moved: 210.00 USDC.`);
    const receipt = (threadFile(h, id, `${id}-receipt.csv`) ?? '').trim().split('\r\n');
    expect(receipt[0]).toBe('row,destination,amount,reference,state,hash or reference,error');
    expect(receipt).toHaveLength(21);
    receipt.slice(1).forEach((line, i) => {
      expect(line).toMatch(
        new RegExp(`^${i + 2},${receivers[i]},${amounts[i]},INV-${i + 1},succeeded,0x[0-9a-f]{64},$`),
      );
    });
  });
  it('warns, with row numbers, of rows repeating another row of the file and of destinations never paid', async () => {
    // The first test paid these three; one new address; row 4 repeats row 2.
    const paid = addresses(3);
    const fresh = addresses(1, 9)[0] as string;
    const id = await submitBatchFile(h, transfersCsv([...paid, paid[0] as string, fresh], [1, 2, 3, 1, 7]));
    const card = blocksText(flow.currentCard(h, id));
    expect(card).toContain('*New destinations:* row 6 pays an address Rampart has never paid');
    expect(card).toContain('*Repeat:* row 5 repeats row 2 of this file (same destination and amount)');
  });

  it('an unfunded wallet pauses it with news in the thread; Resume answers "Not resumed" and moves nothing', async () => {
    const holding = h.sandbox.state.balances.get('wal_ops_7f3a')?.get('base:usdc');
    if (!holding) throw new Error('no ops USDC in the sandbox');
    const before = holding.available;
    const id = await submitBatchFile(h, transfersCsv(addresses(3, 30), [1, 2, 3]));
    holding.available = 0n; // spent elsewhere between submission and approval
    try {
      await flow.click(h, PEOPLE.approver1, id, 'request_approve');
      await waitForApproval(h, id, 'paused');
      await flow.quiescent(h);
      const reply = await eventually(
        () => flow.threadOf(h, id).find((m) => (m.text ?? '').includes('is paused*')),
        10_000,
        'the pause reply',
      );
      expect(reply.text).toContain(`<@${PEOPLE.requester}>`);
      expect(reply.text).toContain(
        'ops holds 0.00 USDC; the remaining 3 rows need 6.00 USDC. Fund ops and *Resume*, or *Stop* (3 rows, 6.00 USDC unsent).',
      );
      expect(cardTextOf(h, id)).toMatch(/^Paused: ops holds 0\.00 USDC; the remaining 3 rows need 6\.00 USDC/);

      await batchClick(h, PEOPLE.approver2, id, 'batch_resume');
      await saidTo(h, PEOPLE.approver2, 'Not resumed: ops holds 0.00 USDC; the remaining 3 rows need 6.00 USDC.');
      expect((await h.rampart.deps.store.get(id))?.approvalState).toBe('paused');
      expect((await h.rampart.deps.store.history(id)).some((e) => e.event === 'resumed')).toBe(false);
    } finally {
      holding.available = before;
    }
    await batchClick(h, PEOPLE.requester, id, 'batch_stop');
    await waitForApproval(h, id, 'done');
    expect(flow.serviceCalls(h, '/transfer').map((c) => (c.body as TransferBody).receiver)).not.toContain(
      addresses(3, 30)[0],
    );
  });
});

describe('a 500 after the service applied row 3 of 10', () => {
  let transfers = 0;
  // Forwards every call to the sandbox (which applies it); the third transfer's answer is a 500.
  const service = useStarted(
    'forwarding service',
    () =>
      startApplyingService(async (req, res, body) => {
        const forwarded = await forward(h.sandbox.url, req, body);
        if (pathOf(req) === '/transfer' && ++transfers === 3)
          return fixed(500, '{"success":false,"status":500,"message":"internal"}')(req, res, body);
        passOn(res, forwarded);
      }),
    (s) => s.close(),
  );
  const h = useHarness('batch-unknown', () => ({ BATCH_RATE: 'off', SERVICE_BASE_URL: service.url }));

  it('row 3 is unknown and never re-sent; the batch pauses loudly; resumed, the other seven run once', async () => {
    const receivers = addresses(10, 2);
    const amounts = receivers.map((_, i) => 10 + i);
    const id = await submitBatchFile(h, transfersCsv(receivers, amounts));
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const paused = await waitForApproval(h, id, 'paused');
    await flow.quiescent(h);
    expect(paused.counts).toMatchObject({ succeeded: 2, unknown: 1, queued: 7 });
    expect(service.applied('/transfer')).toBe(3);
    expect((await h.rampart.deps.store.execution(`${id}.3`))?.state).toBe('unknown');
    const thread = flow
      .threadOf(h, id)
      .map((m) => m.text)
      .join('\n');
    // One reply says which row, what to do first, and mentions the requester.
    expect(thread).toContain(`<@${PEOPLE.requester}>`);
    expect(thread).toContain(`*${id} is paused* (3 of 10 rows run). The outcome of row 4 is UNKNOWN`);
    expect(thread).toContain('Check row 4 with the service first');
    expect(blocksText(flow.currentCard(h, id))).toContain('OUTCOME UNKNOWN: row 4 · paused (3 of 10 rows run)');

    // The requester may not resume their own batch.
    await batchClick(h, PEOPLE.requester, id, 'batch_resume');
    await saidTo(h, PEOPLE.requester, `You requested ${id}, so you cannot resume it`);
    expect((await h.rampart.deps.store.get(id))?.approvalState).toBe('paused');

    await batchClick(h, PEOPLE.approver2, id, 'batch_resume');
    const done = await waitForApproval(h, id, 'done');
    await flow.quiescent(h);
    expect(done.counts).toMatchObject({ succeeded: 9, unknown: 1, failed: 0, cancelled: 0 });
    expect(service.applied('/transfer')).toBe(10);
    const sent = h.sandbox.state.transfers.map((t) => t.receiver);
    expect(sent).toEqual(receivers);
    const history = await h.rampart.deps.store.history(id);
    expect(history.find((e) => e.event === 'resumed')).toMatchObject({ by: PEOPLE.approver2 });
    const receipt = threadFile(h, id, `${id}-receipt.csv`) ?? '';
    expect(receipt).toContain(`4,${receivers[2]},12,INV-3,unknown,`);
  });

  it('Stop while paused cancels the unsent rows: no call for any of them', async () => {
    const receivers = addresses(5, 3);
    transfers = 0; // the 3rd transfer of this batch answers 500
    const before = service.applied('/transfer');
    const id = await submitBatchFile(h, transfersCsv(receivers, [1, 2, 3, 4, 5]));
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForApproval(h, id, 'paused');
    await batchClick(h, PEOPLE.requester, id, 'batch_stop');
    const done = await waitForApproval(h, id, 'done');
    await flow.quiescent(h);
    expect(done.counts).toMatchObject({ succeeded: 2, unknown: 1, cancelled: 2 });
    expect(service.applied('/transfer') - before).toBe(3);
    await saidTo(h, PEOPLE.requester, `${id} stopped: 2 unsent rows cancelled.`);
    const history = await h.rampart.deps.store.history(id);
    expect(history.find((e) => e.event === 'stopped')).toMatchObject({ by: PEOPLE.requester });
  });
});
