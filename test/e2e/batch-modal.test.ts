/**
 * /batch end to end up to the approval: signed Slack requests, the fake Slack holding
 * the picked CSV, Rampart downloading it with the bot token and checking every row before the
 * 3 s ack (a slow one: batch-checking.test.ts). A good file becomes one batch card (the run itself: batch-run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { openBatchModal } from '../support/batches.js';
import { blocksText, expectHealthyRun, GENERAL, PEOPLE } from '../support/harness.js';
import { openModal } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const EVM_A = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const EVM_B = '0x52908400098527886E0F7030069857D2E4169EE7';
const h = useHarness('batch-modal');

const bytes = (text: string) => new TextEncoder().encode(text);

/** Opens /batch and submits it with `csv` picked in the file field. */
async function submit(csv: string | Uint8Array, kind = 'transfers', name = 'payouts.csv') {
  const view = await openBatch();
  const file = h.fake.pickFile(PEOPLE.requester, name, typeof csv === 'string' ? bytes(csv) : csv);
  return h.driver.submitView(PEOPLE.requester, view, {
    kind,
    wallet: 'ops',
    asset: 'base:usdc',
    file,
    reason: 'November vendor run',
  });
}

const openBatch = () => openBatchModal(h);

const fieldErrors = (body: unknown) => (body as { response_action?: string; errors?: Record<string, string> }).errors;

describe('/batch', () => {
  it('opens a modal with kind, wallet, asset, one .csv file and a reason', async () => {
    const view = await openBatch();
    const file = view.blocks.find((b) => b.block_id === 'file') as { element: Record<string, unknown> } | undefined;
    expect(file?.element).toMatchObject({ type: 'file_input', filetypes: ['csv'], max_files: 1 });
  });

  it('lists, as the transfer form does, only the assets the chosen wallet holds with their available balance', async () => {
    const form = await openModal(h, PEOPLE.requester, '/batch');
    const modal = await form.until((t) => /\d available/.test(t), 'asset list with balances');
    expect(blocksText(modal)).toMatch(/\(base:usdc\) · [\d,]+\.\d\d available/);
    expect(blocksText(modal)).not.toContain('ethereum:usdc'); // ops holds none
    await h.driver.click(PEOPLE.requester, { action_id: 'wallet', view: modal, value: 'treasury' });
    const treasury = await form.until((t) => t.includes('ethereum:usdc'), 'asset list of treasury');
    expect(blocksText(treasury)).toContain('2,400,000.00 available');
    expect(blocksText(treasury)).not.toContain('base:usdc');
  });

  it('`/batch template` answers only the requester with each kind’s columns', async () => {
    const r = await h.driver.command(PEOPLE.requester, '/batch', 'template');
    expect(r.body).toMatchObject({ response_type: 'ephemeral' });
    const text = String((r.body as { text: string }).text);
    expect(text).toContain('receiver,amount,reference');
    expect(text).toContain('beneficiary,amount,reference');
  });

  it('a file that passes every check closes the form and becomes one batch card; nothing is sent before approval', async () => {
    const r = await submit(`receiver,amount,reference\n${EVM_A},250,inv 1\n${EVM_B},1000.5,inv 2\n`);
    expect((r.body as { response_action?: string } | undefined)?.response_action).toBeUndefined();
    const card = await h.fake.waitFor(() =>
      h.fake.messages('C0APPROVALS').find((m) => JSON.stringify(m.blocks).includes('Batch of transfers')),
    );
    expect(JSON.stringify(card.blocks)).toContain('*Rows:* 2  ·  *Total:* 1,250.50 USDC');
    expect(h.fake.callsTo('file_download').at(-1)?.args.authorised).toBe(true);
    expect(h.sandbox.state.transfers).toEqual([]);
  });

  it('row errors come back on the file field, naming the rows to fix', async () => {
    const r = await submit(`receiver,amount\n${EVM_A},250\n${EVM_B},"12,50"\n`);
    expect(r.body).toMatchObject({ response_action: 'errors' });
    expect(fieldErrors(r.body)).toEqual({
      file: 'Row 3 amount: "12,50" is not an amount: a comma may only group thousands (1,250.50); use a point for decimals, e.g. 12.50.\nFix row 3 and upload again.',
    });
  });

  it('a list too long for the field goes to the requester as a message, every problem in it', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `${EVM_A},${i % 2 ? '-5' : '1.1234567'}`).join('\n');
    const before = h.fake.ephemerals(PEOPLE.requester).length;
    const r = await submit(`receiver,amount\n${rows}\n`);
    expect(fieldErrors(r.body)?.file).toMatch(
      /\(60 problems in all; the full list is in a message from Rampart\.\)\nFix rows 2, 3, 4, 5, 6 and 55 more and upload again\.$/,
    );
    const sent = await h.fake.waitFor(() => {
      const mine = h.fake.ephemerals(PEOPLE.requester).slice(before);
      return mine.length > 0 ? mine : undefined;
    });
    expect(sent[0]?.channel).toBe(GENERAL);
    const text = JSON.stringify(sent.map((m) => m.blocks));
    for (let row = 2; row <= 61; row++) expect(text).toContain(`Row ${row} amount`);
  });

  it('a file that is not CSV text, or not a .csv, is refused on the field', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(fieldErrors((await submit(png)).body)).toEqual({
      file: 'The file is not a UTF-8 text CSV (it looks binary); export it as "CSV UTF-8" and upload again.',
    });
    expect(fieldErrors((await submit('x', 'transfers', 'payouts.xlsx')).body)).toEqual({
      file: 'payouts.xlsx is not a .csv file; upload the file saved as CSV (UTF-8).',
    });
  });

  it('an offramp to an unknown beneficiary is refused by row', async () => {
    expect(fieldErrors((await submit('beneficiary,amount\nnobody,10\n', 'offramps')).body)?.file).toBe(
      'Row 2 beneficiary: "nobody" is not an approved beneficiary in Rampart; use an id or label from /beneficiary list, or add it with /beneficiary new and wait for its approval.\nFix row 2 and upload again.',
    );
  });

  it('ran healthily: no Block Kit violation, every ack in time, no secret logged', () => {
    expectHealthyRun(h);
  });
});
