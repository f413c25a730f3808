/** Helpers for batch e2e tests: submit a /batch file, find its card, read its thread's files. */
import { findElement, type StoredView } from '../../devkit/index.js';
import { eventually, type Harness, lastView, PEOPLE } from './harness.js';
import { currentCard, waitForRecord } from './requests.js';

/** `n` distinct lower-case EVM addresses (valid without a checksum). */
export const addresses = (n: number, salt = 1): string[] =>
  Array.from({ length: n }, (_, i) => `0x${(salt * 1000 + i + 1).toString(16).padStart(40, 'a')}`);

/** A transfers file: row k pays `amounts[k]` to address k. */
export const transfersCsv = (receivers: readonly string[], amounts: readonly number[]): string =>
  `receiver,amount,reference\n${receivers.map((r, i) => `${r},${amounts[i]},INV-${i + 1}`).join('\n')}\n`;

/** Types /batch as `user` and returns the modal, opened after the command's ack. */
export async function openBatchModal(h: Harness, user: string = PEOPLE.requester): Promise<StoredView> {
  const opened = h.fake.callsTo('views.open').length;
  await h.driver.command(user, '/batch', '');
  await h.fake.waitFor((calls) => calls.filter((c) => c.method === 'views.open').length > opened);
  const view = lastView(h.fake, user);
  if (view?.callback_id !== 'batch_modal') throw new Error('no batch modal opened');
  return view;
}

/** Opens /batch as `user` (the requester by default), submits `csv`, and returns the new batch's id once its card is up. */
export async function submitBatchFile(
  h: Harness,
  csv: string,
  user: string = PEOPLE.requester,
  name = 'payouts.csv',
  kind: 'transfers' | 'offramps' = 'transfers',
): Promise<string> {
  const view = await openBatchModal(h, user);
  const before = new Set(await h.rampart.deps.store.recentIds(50));
  const file = h.fake.pickFile(user, name, new TextEncoder().encode(csv));
  const r = await h.driver.submitView(user, view, {
    kind,
    wallet: 'ops',
    asset: 'base:usdc',
    file,
    reason: 'November vendor run',
  });
  if ((r.body as { response_action?: string } | undefined)?.response_action === 'errors')
    throw new Error(`the batch was refused: ${JSON.stringify(r.body)}`);
  const id = await eventually(
    async () => (await h.rampart.deps.store.recentIds(50)).find((x) => !before.has(x)),
    10_000,
    'a new batch',
  );
  await eventually(
    () => (h.fake.messages('C0APPROVALS').some((m) => JSON.stringify(m.blocks).includes(id)) ? true : undefined),
    10_000,
    `${id}'s card`,
  );
  return id;
}

/** The text of a CSV file uploaded in the thread of `id`'s card, by its name. */
export function threadFile(h: Harness, id: string, name: string): string | undefined {
  const card = currentCard(h, id);
  const inThread = h.fake.thread('C0APPROVALS', card.ts).flatMap((m) => (m.files ?? []) as { id?: string }[]);
  const ids = new Set(inThread.map((f) => f.id));
  const file = h.fake.files().find((f) => f.name === name && ids.has(f.id));
  return file?.bytes?.toString('utf8');
}

export const waitForApproval = (h: Harness, id: string, state: string | readonly string[], timeoutMs = 20_000) =>
  waitForRecord(h, id, 'approvalState', state, timeoutMs);

/**
 * Clicks Resume or Stop once the card shows it: the card is redrawn after the state change, by a
 * notification job, so a person (and this helper) sees the button a moment after the pause.
 */
export async function batchClick(h: Harness, user: string, id: string, action: 'batch_resume' | 'batch_stop') {
  const card = await eventually(
    () => {
      const c = currentCard(h, id);
      return findElement(c.blocks ?? [], action) ? c : undefined;
    },
    10_000,
    `${action} on the card of ${id}`,
  );
  return h.driver.click(user, { action_id: action, message: card, channel: 'C0APPROVALS' });
}
