/** A series made through the /transfer form's repeat fields, as a person submits it. */
import { expect } from 'vitest';
import { APPROVALS, blocksText, eventually, type Harness } from './harness.js';
import { RECEIVER, submitRequest } from './requests.js';

/** A /transfer of `amount` with the repeat fields `values`; the series' id and card once posted. */
export async function postSeries(h: Harness, amount: number, values: Record<string, string | string[]>) {
  const before = h.fake.messages(APPROVALS).length;
  const submit = await submitRequest(h, 'transfer', `${amount} base:usdc to ${RECEIVER} from ops for payroll`, values);
  expect(submit.body, JSON.stringify(submit.body)).toMatchObject({ response_action: 'clear' });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'series card');
  const id = /S-\d+/.exec(blocksText(card))?.[0];
  if (!id) throw new Error(`card without a series id: ${blocksText(card)}`);
  return { id, card };
}
