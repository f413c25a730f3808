/**
 * /batch when the check does not fit Slack's 3 s: a slow file download makes
 * the form say "checking…" in its ack; the same check then answers by views.update — the errors
 * above an empty file field, or the submitted batch — and when the form was closed meanwhile the
 * full list of problems reaches the requester by direct message.
 */
import { describe, expect, it } from 'vitest';
import { findElement, type StoredView } from '../../devkit/index.js';
import { openBatchModal } from '../support/batches.js';
import { blocksText, eventually, expectHealthyRun, lastView, PEOPLE } from '../support/harness.js';
import { useHarness } from '../support/use-harness.js';

const EVM_A = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const SLOW_MS = 3_500;
const h = useHarness('batch-checking');

const bytes = (text: string) => new TextEncoder().encode(text);

const openBatch = () => openBatchModal(h);

async function submitSlowly(view: StoredView, csv: string, fileBlock = 'file') {
  const file = h.fake.pickFile(PEOPLE.requester, 'payouts.csv', bytes(csv));
  h.fake.delayFileDownloads(SLOW_MS);
  try {
    return await h.driver.submitView(PEOPLE.requester, view, {
      kind: 'transfers',
      wallet: 'ops',
      asset: 'base:usdc',
      [fileBlock]: file,
      reason: 'November vendor run',
    });
  } finally {
    h.fake.delayFileDownloads(0);
  }
}

/** The view with this id once it no longer says "Checking…". */
const settled = (id: string) =>
  eventually(
    () => {
      const v = h.fake.views(PEOPLE.requester).find((x) => x.id === id);
      return v && !blocksText({ blocks: v.blocks }).includes('Checking…') ? v : undefined;
    },
    15_000,
    'the form to be updated after its check',
  );

describe('/batch with a slow file download', () => {
  it('acks in time with "checking…", then shows the errors above an empty file field, the other choices kept', async () => {
    const view = await openBatch();
    const r = await submitSlowly(view, `receiver,amount\n${EVM_A},250\n${EVM_A},"12,50"\n`);
    expect(r.ackMs).toBeLessThan(3_000);
    const ack = r.body as { response_action?: string; view?: { blocks?: unknown[] } };
    expect(ack.response_action).toBe('update');
    expect(blocksText({ blocks: ack.view?.blocks ?? [] })).toContain('Checking…');

    const updated = await settled(view.id);
    expect(updated.callback_id).toBe('batch_modal');
    const ids = updated.blocks.map((b) => (b as { block_id?: string }).block_id);
    // A new block id: Slack would otherwise keep the old file in the field.
    expect(ids).toContain('file_again');
    expect(ids).not.toContain('file');
    const text = blocksText({ blocks: updated.blocks });
    expect(text).toContain('Row 3 amount: \\"12,50\\" is not an amount');
    expect(text).toContain('Fix row 3 and upload again.');
    // The problem sits above the file field.
    const problemAt = updated.blocks.findIndex((b) => blocksText({ blocks: [b] }).includes('Fix row 3'));
    expect(problemAt).toBeLessThan(ids.indexOf('file_again'));
    const json = JSON.stringify(updated.blocks);
    expect(json).toContain('"initial_value":"November vendor run"');
    expect(json).toMatch(/"initial_option":\{"text":\{"type":"plain_text","text":"[^"]*"[^}]*\},"value":"base:usdc"\}/);

    // The fixed file, uploaded in the re-rendered form, goes through.
    const again = await h.driver.submitView(PEOPLE.requester, updated, {
      kind: 'transfers',
      wallet: 'ops',
      asset: 'base:usdc',
      file_again: h.fake.pickFile(PEOPLE.requester, 'fixed.csv', bytes(`receiver,amount\n${EVM_A},250\n`)),
    });
    expect((again.body as { response_action?: string } | undefined)?.response_action).toBeUndefined();
    await h.fake.waitFor(() =>
      h.fake.messages('C0APPROVALS').find((m) => JSON.stringify(m.blocks).includes('fixed.csv')),
    );
  });

  it('a file that passes is submitted after "checking…" and the form says which batch it became', async () => {
    const view = await openBatch();
    const before = new Set(await h.rampart.deps.store.recentIds(50));
    const r = await submitSlowly(view, `receiver,amount,reference\n${EVM_A},7.5,slow-1\n`);
    expect((r.body as { response_action?: string }).response_action).toBe('update');
    const updated = await settled(view.id);
    const id = (await h.rampart.deps.store.recentIds(50)).find((x) => !before.has(x));
    expect(id).toMatch(/^B-\d+$/);
    expect(blocksText({ blocks: updated.blocks })).toContain(
      `payouts.csv passed every check: *${id}* is posted for approval.`,
    );
    await h.fake.waitFor(() => h.fake.messages('C0APPROVALS').find((m) => JSON.stringify(m.blocks).includes(`${id}`)));
  });

  it('names each lookalike row after "checking…", and the card asks the approver to confirm them', async () => {
    const paid = '0x52908400098527886E0F7030069857D2E4169EE7';
    // Same first 6 and last 4 characters as the address paid before: the poisoning pattern.
    const alike = `${paid.slice(0, 6)}${'0'.repeat(32)}${paid.slice(-4)}`;
    await h.rampart.deps.store.addPayee('base', paid);
    const view = await openBatch();
    const before = new Set(await h.rampart.deps.store.recentIds(50));
    await submitSlowly(view, `receiver,amount,reference\n${EVM_A},1,ok\n${alike},2,poisoned\n`);
    const updated = await settled(view.id);
    const id = (await h.rampart.deps.store.recentIds(50)).find((x) => !before.has(x)) ?? '';
    const said = blocksText({ blocks: updated.blocks });
    expect(said).toContain(`*${id}* is posted for approval.`);
    expect(said).toContain('*Lookalikes:* approvers confirm each of these on Approve');
    expect(said).toContain('• row 3: lookalike of paid before 0x5290…9ee7');
    const card = await h.fake.waitFor(() =>
      h.fake.messages('C0APPROVALS').find((m) => JSON.stringify(m.blocks).includes(id)),
    );
    const approve = findElement(card.blocks ?? [], 'request_approve')?.element as
      | { value?: string; confirm?: { text?: { text?: string } } }
      | undefined;
    expect(approve?.value).toBe(`${id} warnings-checked`);
    expect(approve?.confirm?.text?.text).toContain('row 3: lookalike of paid before');
  });

  it('a slow wallet service also gets "checking…" and then the answer, never a refusal for being slow', async () => {
    const view = await openBatch();
    const file = h.fake.pickFile(PEOPLE.requester, 'payouts.csv', bytes(`receiver,amount\n${EVM_A},1000000000\n`));
    h.sandbox.faults.latency(SLOW_MS);
    try {
      const r = await h.driver.submitView(PEOPLE.requester, view, {
        kind: 'transfers',
        wallet: 'ops',
        asset: 'base:usdc',
        file,
      });
      expect(r.ackMs).toBeLessThan(3_000);
      expect((r.body as { response_action?: string }).response_action).toBe('update');
    } finally {
      h.sandbox.faults.latency(0);
    }
    const updated = await settled(view.id);
    expect(blocksText({ blocks: updated.blocks })).toContain('The total of 1,000,000,000.00 USDC is too much');
  });

  it('when the form was closed during the check, the full list comes by direct message', async () => {
    const view = await openBatch();
    const dms = () => h.fake.callsTo('chat.postMessage').filter((c) => c.args.channel === PEOPLE.requester);
    const before = dms().length;
    const pending = submitSlowly(view, `receiver,amount\n${EVM_A},-5\n${EVM_A},1.1234567\n`);
    // The person closes the "checking…" form before the download ends.
    await eventually(
      () =>
        blocksText({ blocks: lastView(h.fake, PEOPLE.requester)?.blocks ?? [] }).includes('Checking…')
          ? true
          : undefined,
      5_000,
      'the checking view',
    );
    h.fake.closeView(PEOPLE.requester, view.id);
    await pending;
    const sent = await eventually(() => (dms().length > before ? dms().slice(before) : undefined), 15_000, 'a DM');
    const text = JSON.stringify(sent.map((c) => c.args.blocks));
    expect(text).toContain('Row 2 amount');
    expect(text).toContain('Row 3 amount');
    expect(text).toContain('nothing was submitted');
  });

  it('ran healthily: no Block Kit violation, every ack in time, no secret logged', () => {
    expectHealthyRun(h);
  });
});
