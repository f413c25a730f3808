/**
 * Pending requests for part 2, made by the same use case as the modal submission
 * (app/submit-request.ts, then announce: expiry and card jobs) and posted as cards by
 * Rampart's own notify worker; plus the polling helpers the bench waits with.
 */
import type { Queue } from 'bullmq';
import { announce } from '../src/app/post-request.js';
import { submitRequest } from '../src/app/submit-request.js';
import type { Running } from '../src/rampart.js';
import { PEOPLE, type World } from './world.js';

const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
// Treasury holds 80M cNGN in the sandbox: amounts 1..N (one unique amount per request, which is
// how a transfer is matched to its click) stay well inside it for any N the bench uses.
const WALLET = 'treasury';
const ASSET = 'base:cngn';

/** The transfer amount of the request posted `index`-th (0-based): unique per request. */
export const amountFor = (index: number): number => index + 1;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(what: string, timeoutMs: number, probe: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/** Posts one transfer exactly as the modal submission does (app/submit-request.ts), then announces it. */
async function submitTransfer(deps: Running['deps'], index: number): Promise<string> {
  const amount = amountFor(index);
  const outcome = await submitRequest(
    { ...deps, withinBudget: (work) => work },
    {
      input: {
        kind: 'transfer',
        wallet: WALLET,
        asset: ASSET,
        amount: String(amount),
        entireBalance: false,
        receiver: RECEIVER,
        beneficiary: undefined,
        reason: `bench approval ${amount}`,
      },
      requester: PEOPLE.requester,
      origin: undefined,
      submission: `bench-${index}-${deps.now()}`,
    },
  );
  if (outcome.kind !== 'submitted') throw new Error(`bench request refused: ${JSON.stringify(outcome)}`);
  await announce(deps, outcome.sealed);
  return outcome.sealed.id;
}

export async function idle(queues: readonly Queue[]): Promise<boolean> {
  for (const q of queues) {
    const counts = await q.getJobCounts('waiting', 'active', 'prioritized');
    if (Object.values(counts).some((n) => n > 0)) return false;
  }
  return true;
}

/**
 * Creates `total` pending requests the way a modal submission does and waits for their cards;
 * `base` is the index of the first (each round of a run takes its own amounts).
 */
export async function postRequests(world: World, total: number, base = 0): Promise<string[]> {
  const { deps } = world.rampart;
  const ids: string[] = [];
  for (let start = 0; start < total; start += 16) {
    const batch = Array.from({ length: Math.min(16, total - start) }, (_, k) => submitTransfer(deps, base + start + k));
    ids.push(...(await Promise.all(batch)));
  }
  let waiting = [...ids];
  await until('the approval cards', 60_000 + total * 100, async () => {
    // On a loaded machine a read of hundreds at once can pass the store's 1 s command timeout
    // (store/redis.ts); such a card is read again on the next poll, within the wait's own limit.
    const records = await Promise.all(waiting.map((id) => deps.store.get(id).catch(() => undefined)));
    waiting = waiting.filter((_, k) => records[k]?.card === undefined);
    return waiting.length === 0;
  });
  await until('the notify queue to drain', 30_000, () => idle([deps.queues.notifications]));
  return ids;
}
