/**
 * The start script's address-book check (store/lua/includes/book.lua) against its domain function
 * (domain/address-book.ts entryStartRule) over a grid of facts: the entry live, removed, or
 * replaced by a new one; every wallet, another wallet or this one; cooled or still cooling; the
 * payment approved just now or longer ago than the cooling-off. The script must answer exactly
 * what the function answers: start, wait, or cancel.
 */
import { describe, expect, it } from 'vitest';
import { entryStartRule } from '../../src/domain/address-book.js';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest, CALLS } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';
import { ruleAnswerOf, startAnswerOf } from './start-answers.js';

const { redis, prefix } = useRedisPrefix('book-start');
const store = new RequestStore(redis, prefix);
const HOUR = 3_600_000;
const transfer = CALLS.transfer;
if (transfer.kind !== 'transfer') throw new Error('the factory transfer changed');
const call = transfer;
const WALLET = call.body.wallet_id;

type Standing = 'live' | 'removed' | 'replaced';
type Wallets = '*' | 'other' | 'this';
type Cooling = 'cooled' | 'cooling';
type Approved = 'now' | 'long-ago';

const grid: [Standing, Wallets, Cooling, Approved][] = [];
for (const s of ['live', 'removed', 'replaced'] as const)
  for (const w of ['*', 'other', 'this'] as const)
    for (const c of ['cooled', 'cooling'] as const)
      for (const a of ['now', 'long-ago'] as const) grid.push([s, w, c, a]);

const by = { addedBy: 'U0ADDER', approvedBy: 'U0APPROVER1', requestId: 'R-0' };

async function stage(standing: Standing, wallets: Wallets, cooling: Cooling, approved: Approved) {
  // One address per case: the receiver of the factory's transfer, cleared between cases.
  await redis.del(`${prefix}:book:index`, `${prefix}:book:removed`);
  const added = await store.book.add(
    [{ name: 'Grid', chain: 'base', address: call.body.receiver, wallets: '*' }],
    by,
    HOUR,
  );
  if (!added.ok) throw new Error('not added');
  const entryId = added.ids[0] ?? '';
  const id = await store.nextId();
  await store.create(buildFreshRequest(id));
  expect(await store.vote(id, 'U0APPROVER1')).toBe('approved');
  const now = Date.now();
  const entryKey = `${prefix}:book:entry:${entryId}`;
  // The entry was approved an hour before it became (or becomes) usable.
  const usableAt = cooling === 'cooled' ? now - HOUR : now + HOUR / 2;
  await redis.hset(entryKey, 'usableAt', String(usableAt), 'approvedAt', String(usableAt - HOUR));
  if (wallets !== '*') await redis.hset(entryKey, 'wallets', wallets === 'this' ? `,${WALLET},` : ',wal_other,');
  // The payment's approval: just now, or longer ago than the entry's cooling-off.
  const decidedAt = approved === 'now' ? now : now - 2 * HOUR;
  await redis.hset(`${prefix}:req:${id}`, 'decidedAt', String(decidedAt));
  if (standing !== 'live') await store.book.remove(entryId, 'U0REMOVER');
  if (standing === 'replaced')
    await store.book.add([{ name: 'Grid again', chain: 'base', address: call.body.receiver, wallets: '*' }], by, 0);
  const entry = await store.book.get(entryId);
  const expected = entryStartRule(entry, { entryId, walletId: WALLET, approvedAt: decidedAt }, Date.now());
  return { id, expected };
}

const CODE_WORDS: Record<string, RegExp> = {
  entry_removed: /address-book entry removed/,
  wallet_not_in_entry: /may not be paid from wallet/,
  entry_cooling_over: /whole cooling-off/,
};

describe('START and entryStartRule agree', () => {
  it.each(grid)('entry %s, wallets %s, %s, payment approved %s', async (standing, wallets, cooling, approved) => {
    const { id, expected } = await stage(standing, wallets, cooling, approved);
    const started = await store.executions.start(`${id}.1`, 'grid-worker', 'grid-job');
    const want = ruleAnswerOf(expected);
    // The script's code is the domain function's, exactly; its words say the same.
    expect(startAnswerOf(started)).toBe(want);
    if (want.startsWith('cancel: ')) {
      expect(started.token === undefined ? started.cancelled?.why : '').toMatch(
        CODE_WORDS[want.slice('cancel: '.length)] ?? /never/,
      );
      expect((await store.get(id))?.executions[0]?.state).toBe('cancelled');
    }
  });
});
