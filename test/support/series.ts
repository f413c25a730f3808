/** Series for the tests: made through the /transfer form's repeat fields, or sealed with near run times. */
import { expect } from 'vitest';
import { announce, sealRequest } from '../../src/app/post-request.js';
import type { SealedRequest, ServiceCall } from '../../src/domain/request.js';
import type { SealedSchedule } from '../../src/domain/schedule.js';
import type { RequestStore } from '../../src/store/requests.js';
import { sealedOf, sealedSeriesInput, transferOf } from './factories.js';
import { APPROVALS, blocksText, cardFor, eventually, type Harness } from './harness.js';
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
  const s = await sealRequest(
    deps,
    sealedSeriesInput((await deps.store.allocate('S')).id, transferOf(amount), runs, {
      display: { chain: 'base', walletAlias: 'ops', amountText: String(amount), assetCode: 'USDC' },
      reason,
    }),
  );
  if (s.kind !== 'created') throw new Error(`not created: ${s.kind}`);
  await announce(deps, s.sealed);
  await eventually(() => cardFor(h.fake, s.sealed.id), 10_000, 'series card');
  return s.sealed.id;
}

const DAY = 86_400_000;

/**
 * A series of three daily runs of `call` from tomorrow (nothing runs while a test does), created
 * through the store and live after `approver`'s vote; its id.
 */
export async function storedLiveSeries(
  store: RequestStore,
  call: ServiceCall,
  over: Partial<SealedRequest> = {},
  approver = 'U0APPROVER1',
): Promise<string> {
  const { id } = await store.allocate('S');
  const t0 = Date.now() + DAY;
  const sealed = sealedOf(id, call, {
    ...over,
    schedule: {
      every: { unit: 'days', n: 1 },
      at: '09:00',
      zone: 'UTC',
      ends: { after: 3 },
      runs: [t0, t0 + DAY, t0 + 2 * DAY],
    },
  });
  if ((await store.create(sealed, { shape: 'series' })).outcome !== 'created') throw new Error(`${id} not created`);
  if (((await store.castVote(id, approver)).state as string) !== 'live') throw new Error(`${id} not live`);
  return id;
}
