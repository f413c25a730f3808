/**
 * Request again: a finished batch's requester asks for the rows that
 * ended failed or cancelled — never unknown — as a new batch, re-checked against today's
 * balance, shown in a confirmation modal before its card is posted; only the requester, once.
 */
import { describe, expect, it } from 'vitest';
import { findElement, type StoredMessage, type StoredView } from '../../devkit/index.js';
import { envelopeText, fixed, forward, passOn, pathOf, startApplyingService } from '../support/applying-service.js';
import { addresses, batchClick, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { blocksText, eventually, type Harness, PEOPLE } from '../support/harness.js';
import { click, ephemeralText, quiescent, threadOf } from '../support/requests.js';
import { useHarness, useStarted } from '../support/use-harness.js';

const saidTo = (h: Harness, user: string, text: string) =>
  eventually(() => (ephemeralText(h, user).includes(text) ? true : undefined), 10_000, `"${text}" to reach ${user}`);

describe('request again', () => {
  let transfers = 0;
  /** The nth transfer through the proxy (1-based) answers this, applied or not. */
  const answers = new Map<number, 'refuse' | 'unknown'>();
  const receivers = addresses(5, 7);
  let source = '';

  const service = useStarted(
    'forwarding service',
    () =>
      startApplyingService(async (req, res, body) => {
        const nth = pathOf(req) === '/transfer' ? ++transfers : 0;
        // A refusal never reaches the sandbox: nothing moved.
        if (answers.get(nth) === 'refuse') return fixed(400, envelopeText(400, 'receiver is blocked'))(req, res, body);
        const forwarded = await forward(h.sandbox.url, req, body);
        if (answers.get(nth) === 'unknown') return fixed(500, envelopeText(500, 'internal'))(req, res, body);
        passOn(res, forwarded);
      }),
    (s) => s.close(),
  );
  const h = useHarness('batch-again', () => ({ BATCH_RATE: 'off', SERVICE_BASE_URL: service.url }));

  /** The summary message with its Request again button, in the thread of `id`'s card. */
  const summary = (id: string) =>
    eventually(
      () => threadOf(h, id).find((m) => findElement(m.blocks ?? [], 'batch_request_again')),
      10_000,
      `the Request again button under ${id}'s summary`,
    );
  const pressAgain = (user: string, message: StoredMessage) =>
    h.driver.click(user, { action_id: 'batch_request_again', message, channel: 'C0APPROVALS' });
  /** The requester's request-again form once its check ended. */
  const checkedForm = () =>
    eventually(
      () => {
        const v = h.fake.views(PEOPLE.requester).at(-1);
        const text = v ? blocksText({ blocks: v.blocks }) : '';
        return v && JSON.stringify(v.title).includes('Request again') && !text.includes('Checking…') ? v : undefined;
      },
      10_000,
      'the checked request-again form',
    );

  it('offers the failed and cancelled rows (never the unknown one) to the requester only, checked again, then posts one new card', async () => {
    // Row 3 is refused (failed), row 4 applied but unanswered (unknown: the batch pauses); stop cancels rows 5 and 6.
    answers.set(2, 'refuse').set(3, 'unknown');
    source = await submitBatchFile(h, transfersCsv(receivers, [1, 2, 3, 4, 5]));
    await click(h, PEOPLE.approver1, source, 'request_approve');
    await waitForApproval(h, source, 'paused');
    await batchClick(h, PEOPLE.requester, source, 'batch_stop');
    const done = await waitForApproval(h, source, 'done');
    expect(done.counts).toMatchObject({ succeeded: 1, failed: 1, unknown: 1, cancelled: 2 });
    const message = await summary(source);
    expect(blocksText(message)).toContain('Request again (3 rows)');

    // Only the requester.
    const opened = h.fake.callsTo('views.open').length;
    await pressAgain(PEOPLE.approver1, message);
    await saidTo(
      h,
      PEOPLE.approver1,
      `Only the requester of ${source}, <@${PEOPLE.requester}>, can request its rows again.`,
    );
    expect(h.fake.callsTo('views.open')).toHaveLength(opened);

    await pressAgain(PEOPLE.requester, message);
    const form: StoredView = await checkedForm();
    expect(form.callback_id).toBe('batch_again_modal');
    const text = blocksText({ blocks: form.blocks });
    expect(text).toContain('*Rows:* 3  ·  *Total:* 11.00 USDC');
    expect(text).toContain(`(row 3 of ${source}, failed)`);
    expect(text).toContain(`(row 5 of ${source}, cancelled)`);
    expect(text).toContain(`(row 6 of ${source}, cancelled)`);
    expect(text).not.toContain(`row 4 of ${source}`);
    // Nothing is posted before the requester confirms.
    expect((await h.rampart.deps.store.recentIds(5))[0]).toBe(source);

    const r = await h.driver.submitView(PEOPLE.requester, form, {});
    expect((r.body as { response_action?: string }).response_action).toBe('update');
    const again = await eventually(
      async () => (await h.rampart.deps.store.recentIds(5)).find((x) => x !== source && x.startsWith('B-')),
      10_000,
      'the new batch',
    );
    await eventually(
      () =>
        blocksText({ blocks: h.fake.views(PEOPLE.requester).at(-1)?.blocks ?? [] }).includes(
          `*${again}* is posted for approval`,
        )
          ? true
          : undefined,
      10_000,
      'the form to say which batch it became',
    );
    expect(await h.rampart.deps.store.batches.rows(again)).toEqual([
      { row: 2, destination: receivers[1], amount: '2', reference: 'INV-2' },
      { row: 3, destination: receivers[3], amount: '4', reference: 'INV-4' },
      { row: 4, destination: receivers[4], amount: '5', reference: 'INV-5' },
    ]);
    const record = await h.rampart.deps.store.get(again);
    expect(record?.sealed.requester).toBe(PEOPLE.requester);
    expect(record?.approvalState).toBe('pending');

    // Once: a second press names the batch it became.
    await pressAgain(PEOPLE.requester, message);
    await saidTo(h, PEOPLE.requester, `The rows of ${source} were already requested again as ${again}`);

    // Approved like any batch, it pays exactly those three rows, once each.
    const before = h.sandbox.state.transfers.length;
    await click(h, PEOPLE.approver2, again, 'request_approve');
    await waitForApproval(h, again, 'done');
    await quiescent(h);
    expect(h.sandbox.state.transfers.slice(before).map((t) => t.receiver)).toEqual([
      receivers[1],
      receivers[3],
      receivers[4],
    ]);
  });

  it('a re-check that no longer passes shows the problems and no submit', async () => {
    answers.clear();
    transfers = 0;
    answers.set(1, 'refuse');
    const id = await submitBatchFile(h, transfersCsv(addresses(2, 8), [3, 4]));
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForApproval(h, id, 'done');
    const message = await summary(id);
    // Today the wallet holds less than the row needs.
    const holding = h.sandbox.state.balances.get('wal_ops_7f3a')?.get('base:usdc');
    if (!holding) throw new Error('no ops holding');
    const saved = holding.available;
    holding.available = 1_000_000n; // 1 USDC
    try {
      await pressAgain(PEOPLE.requester, message);
      const form = await checkedForm();
      expect(form.submit).toBeNull();
      const text = blocksText({ blocks: form.blocks });
      expect(text).toContain(`The rows of ${id} cannot be requested again as they are.* Nothing was submitted.`);
      expect(text).toContain('The total of 3.00 USDC is too much');
    } finally {
      holding.available = saved;
    }
  });
});
