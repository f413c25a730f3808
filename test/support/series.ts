/** Series for the tests: made through the /transfer form's repeat fields, or sealed with near run times. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { announce, sealRequest } from '../../src/app/post-request.js';
import type { SealedSchedule } from '../../src/domain/schedule.js';
import { transferOf } from './factories.js';
import { APPROVALS, blocksText, cardFor, eventually, type Harness, PEOPLE } from './harness.js';
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

/**
 * A series of `amount` per run at the instants `runs` (a minute cadence, as tests allow) or on a
 * sealed schedule, sealed as a submission seals it and announced; its id once its card is posted.
 */
export async function postSealedSeries(
  h: Harness,
  amount: number,
  runs: number[] | SealedSchedule,
  reason = 'retainer',
): Promise<string> {
  const deps = h.rampart.deps;
  const s = await sealRequest(deps, {
    id: (await deps.store.allocate('S')).id,
    shape: 'series',
    call: transferOf(amount),
    display: { chain: 'base', walletAlias: 'ops', amountText: String(amount), assetCode: 'USDC' },
    requester: PEOPLE.requester,
    reason,
    origin: undefined,
    required: 1,
    rule: '1 approval',
    stepUp: false,
    submission: `V${randomUUID()}`,
    schedule: Array.isArray(runs)
      ? { every: { unit: 'minutes', n: 1 }, at: undefined, zone: 'UTC', ends: { after: runs.length }, runs }
      : runs,
  });
  if (s.kind !== 'created') throw new Error(`not created: ${s.kind}`);
  await announce(deps, s.sealed);
  await eventually(() => cardFor(h.fake, s.sealed.id), 10_000, 'series card');
  return s.sealed.id;
}
