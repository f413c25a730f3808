/**
 * A batch through the workbench's own HTTP API, as the page drives it: /batch, a CSV
 * picked in the form's file field, the card, an approval, and the rows file and the receipt
 * shown in the card's thread as links the page can open or save.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { findElement, type StoredMessage } from '../../devkit/index.js';
import { buildBeneficiary } from '../support/factories.js';
import { eventually } from '../support/harness.js';
import { postJson, RECEIVER, startTestWorkbench, type TestWorkbench } from './support.js';

let wb: TestWorkbench;
beforeAll(async () => {
  wb = await startTestWorkbench('batch', { BATCH_RATE: 'off' });
});
afterAll(async () => {
  await wb?.close();
});

const post = (path: string, body: unknown) => postJson(wb, path, body);

type Reply = { html: string };
async function threadReplies(user: string, id: string): Promise<Reply[]> {
  const res = await fetch(new URL(`/api/state?user=${user}`, wb.url));
  const state = (await res.json()) as { channels: { id: string; messages: { html: string; replies: Reply[] }[] }[] };
  const card = state.channels.find((c) => c.id === 'C0APPROVALS')?.messages.find((m) => m.html.includes(id));
  return card?.replies ?? [];
}

/** The file a thread reply links to, fetched as the page's link does. */
async function linkedFile(reply: Reply): Promise<string> {
  const href = /href="(\/api\/file\?id=[^"]+)"/.exec(reply.html)?.[1];
  if (!href) throw new Error('no file link in the reply');
  return (await fetch(new URL(href.replaceAll('&amp;', '&'), wb.url))).text();
}

/** /batch in the workbench: the form opened, `csv` picked in its file field, submitted; the new card. */
async function submitFile(user: string, name: string, csv: string, kind: 'transfers' | 'offramps', reason: string) {
  const seen = new Set(wb.fake.views(user).map((v) => v.id));
  await post('/api/command', { user, channel: 'C0GENERAL', text: '/batch' });
  const view = await eventually(
    () => wb.fake.views(user).find((v) => v.callback_id === 'batch_modal' && !seen.has(v.id)),
    10_000,
    'the batch form',
  );
  const file = await post('/api/pick-file', { user, name, content: Buffer.from(csv).toString('base64') });
  const submitted = await post('/api/submit', {
    user,
    viewId: view.id,
    values: { kind, wallet: 'ops', asset: 'base:usdc', file, reason },
  });
  expect(submitted.errors).toEqual({});
  const title = kind === 'transfers' ? 'Batch of transfers' : 'Batch of offramps';
  const card = await eventually(
    () => wb.fake.messages('C0APPROVALS').find((m) => JSON.stringify(m.blocks).includes(title)),
    20_000,
    'the batch card',
  );
  return { card, id: /B-\d+/.exec(JSON.stringify(card.blocks))?.[0] ?? '' };
}

/** Approve clicked on `card` through the page's API, as approver 1. */
async function approveCard(card: { blocks?: unknown[]; ts: string }): Promise<void> {
  const approve = findElement((card.blocks ?? []) as never[], 'request_approve');
  if (!approve) throw new Error('no Approve button');
  await post('/api/click', {
    user: 'U0APPROVER1',
    actionId: 'request_approve',
    blockId: approve.blockId,
    value: String(approve.element.value),
    channel: 'C0APPROVALS',
    ts: card.ts,
  });
}

/** Clicks the button `actionId` in `message` as `user`, through the workbench's API as its page does. */
async function clickButton(user: string, message: StoredMessage, actionId: string, value: string) {
  const button = findElement(message.blocks ?? [], actionId);
  await post('/api/click', {
    user,
    actionId,
    blockId: button?.blockId ?? '',
    value,
    channel: 'C0APPROVALS',
    ts: message.ts,
  });
}

/** The lines of the receipt linked in the batch's thread, once it is there. */
async function receiptLines(user: string, id: string, timeoutMs: number): Promise<string[]> {
  const receipt = await eventually(
    async () => (await threadReplies(user, id)).find((r) => r.html.includes(`${id}-receipt.csv`)),
    timeoutMs,
    'the receipt in the thread',
  );
  return (await linkedFile(receipt)).trim().split('\r\n');
}

it('takes a CSV picked in the /batch form to a card, an approval, and the rows and receipt files in its thread', async () => {
  const user = 'U0REQUESTER';
  const csv = `receiver,amount,reference\n${RECEIVER},12.5,INV-1\n${RECEIVER.toLowerCase()},7,INV-2\n`;
  const { card, id } = await submitFile(user, 'vendors.csv', csv, 'transfers', 'workbench run');
  const rows = await eventually(
    async () => (await threadReplies(user, id)).find((r) => r.html.includes(`${id}-rows.csv`)),
    10_000,
    'the rows file in the thread',
  );
  expect(await linkedFile(rows)).toContain(`2,${RECEIVER},12.5,INV-1`);

  await approveCard(card);
  const lines = await receiptLines(user, id, 20_000);
  expect(lines[0]).toBe('row,destination,amount,reference,state,hash or reference,error');
  expect(lines.slice(1).map((l) => l.split(',').slice(0, 5).join(','))).toEqual([
    `2,${RECEIVER},12.5,INV-1,succeeded`,
    `3,${RECEIVER.toLowerCase()},7,INV-2,succeeded`,
  ]);
  const summary = (await threadReplies(user, id)).find((r) => r.html.includes(`Batch ${id} finished`));
  expect(summary?.html).toContain('Paid: all 2 (19.50 USDC)');
});

it('offers the failed rows again from a button in the thread, and posts the new batch from the form', async () => {
  const user = 'U0REQUESTER';
  const sandbox = wb.rampart.sandbox;
  const ops = sandbox?.state.wallets.get('wal_ops_7f3a');
  if (!ops) throw new Error('no sandbox ops wallet');
  await post('/api/command', { user, channel: 'C0GENERAL', text: '/batch' });
  const view = await eventually(
    () => wb.fake.views(user).find((v) => v.callback_id === 'batch_modal'),
    10_000,
    'the batch form',
  );
  const csv = `receiver,amount,reference\n${RECEIVER},3,AGAIN-1\n`;
  const file = await post('/api/pick-file', { user, name: 'again.csv', content: Buffer.from(csv).toString('base64') });
  await post('/api/submit', {
    user,
    viewId: view.id,
    values: { kind: 'transfers', wallet: 'ops', asset: 'base:usdc', file },
  });
  const card = await eventually(
    () => wb.fake.messages('C0APPROVALS').find((m) => JSON.stringify(m.blocks).includes('again.csv')),
    10_000,
    'the batch card',
  );
  const id = /B-\d+/.exec(JSON.stringify(card.blocks))?.[0] ?? '';
  // The service refuses the row when it runs: failed, nothing moved.
  ops.transfer = false;
  await clickButton('U0APPROVER1', card, 'request_approve', id);
  const summary = await eventually(
    () => wb.fake.thread('C0APPROVALS', card.ts).find((m) => findElement(m.blocks ?? [], 'batch_request_again')),
    20_000,
    'the Request again button',
  );
  ops.transfer = true;
  const html = (await threadReplies(user, id)).find((r) => r.html.includes(`Batch ${id} finished`))?.html ?? '';
  expect(html).toContain('Request again (1 row)');
  await clickButton(user, summary, 'batch_request_again', id);
  const form = await eventually(
    () => wb.fake.views(user).find((v) => v.callback_id === 'batch_again_modal'),
    10_000,
    'the request-again form',
  );
  expect(JSON.stringify(form.blocks)).toContain('*Rows:* 1  ·  *Total:* 3.00 USDC');
  await post('/api/submit', { user, viewId: form.id, values: {} });
  await eventually(
    () => wb.fake.messages('C0APPROVALS').find((m) => JSON.stringify(m.blocks).includes(`${id}-again.csv`)),
    10_000,
    'the new batch card',
  );
});

/**
 * In the workbench: a 1,000-row offramp file picked in the form goes to one
 * card, one approval (a click through the page's API) and a 1,000-row receipt in the thread, and
 * the sandbox behind the workbench receives exactly one offramp per row.
 */
it('takes a 1,000-row offramp file from the form to one card, one approval and a 1,000-row receipt', async () => {
  const ROWS = 1_000;
  const sandbox = wb.rampart.sandbox;
  if (!sandbox) throw new Error('the workbench runs on its sandbox');
  for (let i = 0; i < 10; i++) {
    const id = `ben_wb${i}`;
    sandbox.state.beneficiaries.set(id, { id, identityId: 'idn_1', currency: 'NGN', details: {} });
    const people = { createdBy: 'U0REQUESTER', approvedBy: 'U0APPROVER1' };
    await wb.rampart.deps.registry.addBeneficiary(
      buildBeneficiary(id, `Payee ${i}`, { identityName: 'Payee', holderName: 'PAYEE', ...people }),
    );
  }
  const before = sandbox.state.offramps.length;
  const user = 'U0REQUESTER';
  const csv = `beneficiary,amount,reference\n${Array.from(
    { length: ROWS },
    (_, k) => `${k % 2 ? `ben_wb${k % 10}` : `Payee ${k % 10}`},${(1 + (k % 5)).toFixed(2)},WB-${k}`,
  ).join('\n')}\n`;
  const { card, id } = await submitFile(user, 'payroll.csv', csv, 'offramps', 'workbench payroll');
  await approveCard(card);
  const lines = await receiptLines(user, id, 240_000);
  expect(lines).toHaveLength(ROWS + 1);
  expect(lines.slice(1).every((l) => l.includes(',initiated,'))).toBe(true);
  const sent = sandbox.state.offramps.slice(before);
  expect(sent).toHaveLength(ROWS);
  expect(new Set(sent.map((o) => o.reference)).size).toBe(ROWS);
  expect(
    wb.fake.messages('C0APPROVALS').filter((m) => !m.thread_ts && JSON.stringify(m.blocks).includes(id)),
  ).toHaveLength(1);
}, 300_000);
