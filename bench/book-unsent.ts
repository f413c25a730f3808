/**
 * What `/addresses` "stops N" costs: the queued executions sealed with each address-book entry,
 * over every open approval. Before: every open approval read whole (its sealed request and first
 * execution), one round trip after another, and a batch's executions in pages. After
 * (store/requests.ts unsentByEntry): the approvals' execution counts in one pipeline, then two
 * fields per execution in pipelined pages. Run: `npx tsx bench/book-unsent.ts` (REDIS_URL).
 */
import { Redis } from 'ioredis';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { RequestStore } from '../src/store/requests.js';
import { buildFreshRequest, CALLS } from '../test/support/factories.js';

const SINGLES = Number(process.env.SINGLES ?? 500);
const BATCH_ROWS = Number(process.env.BATCH_ROWS ?? 1_000);
const BATCHES = Number(process.env.BATCHES ?? 2);
const RUNS = 5;
const PAGE = 500;

/** The implementation this replaces (app/destinations/unsent.ts before), kept to compare. */
async function before(store: RequestStore): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of await store.openIds()) {
    const record = await store.get(id);
    if (!record) continue;
    const pages =
      record.executionCount <= record.executions.length
        ? [record.executions]
        : await Promise.all(
            Array.from({ length: Math.ceil(record.executionCount / PAGE) }, (_, i) =>
              store.executions.page(id, i * PAGE, PAGE, record.executionCount),
            ),
          );
    for (const e of pages.flat())
      if (e.state === 'queued' && e.entryId) counts.set(e.entryId, (counts.get(e.entryId) ?? 0) + 1);
  }
  return counts;
}

async function median(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? 0;
}

async function main() {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `{bench-unsent-${process.pid}}`;
  const store = new RequestStore(redis, prefix);
  const call = CALLS.transfer;
  if (call.kind !== 'transfer') throw new Error('the factory transfer changed');
  try {
    // One entry for the factory's receiver: every execution below is sealed with it.
    await store.book.add(
      [{ name: 'Bench', chain: 'base', address: call.body.receiver, wallets: '*' }],
      {
        addedBy: 'U0A',
        approvedBy: 'U0B',
        requestId: 'R-0',
      },
      0,
    );
    for (let i = 0; i < SINGLES; i++) await store.create(buildFreshRequest(await store.nextId()));
    for (let b = 0; b < BATCHES; b++) {
      const id = await store.nextId('B');
      await store.create(
        buildFreshRequest(id),
        { shape: 'batch' },
        Array.from({ length: BATCH_ROWS }, () => call),
      );
    }
    const [old, now] = [await before(store), await store.unsentByEntry()];
    if (JSON.stringify([...old]) !== JSON.stringify([...now])) throw new Error('the two counts differ');
    const expected = SINGLES + BATCHES * BATCH_ROWS;
    if ([...now.values()][0] !== expected) throw new Error(`counted ${[...now.values()][0]}, expected ${expected}`);
    const beforeMs = await median(() => before(store));
    const afterMs = await median(() => store.unsentByEntry());
    console.log(
      `${SINGLES} open singles + ${BATCHES} batches of ${BATCH_ROWS} rows: before ${beforeMs.toFixed(0)} ms, after ${afterMs.toFixed(0)} ms (median of ${RUNS})`,
    );
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  }
}

void main();
