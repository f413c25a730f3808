/**
 * Moves the paid-before set written before destination keys (`<prefix>:payees`, members
 * `<chain>:<destination lower-cased>`) to the keyed sets (store/paid-before.ts), by the rule in
 * domain/destination-key.ts `legacyPayee`: EVM entries re-keyed, Solana entries dropped (their
 * case is lost, so which account was paid is not known), beneficiary entries matched to the one
 * registered id they lower-case from, or dropped. An entry leaves the old set only after its move;
 * two workers sweeping at once make the same idempotent moves. Run at every worker start (from
 * store/migration-sweep.ts): a missing old set costs one read.
 */
import { legacyPayee, PAID_BENEFICIARIES } from '../domain/destination-key.js';
import { legacyPayeesKey, paidKey } from './paid-before.js';
import type { RedisClient } from './redis.js';
import type { StoreKeys } from './store-keys.js';

export interface PayeesMoved {
  rekeyed: number;
  dropped: number;
}

export async function sweepLegacyPayees(redis: RedisClient, keys: StoreKeys, pageSize = 500): Promise<PayeesMoved> {
  const legacy = legacyPayeesKey(keys);
  const moved: PayeesMoved = { rekeyed: 0, dropped: 0 };
  let registered: Map<string, string[]> | undefined;
  const idsFor = async (): Promise<Map<string, string[]>> => {
    if (registered) return registered;
    // The registry's beneficiaries (store/registry.ts), by their ids lower-cased.
    const ids = await redis.hkeys(`${keys.prefix}:beneficiaries`);
    registered = new Map();
    for (const id of ids) registered.set(id.toLowerCase(), [...(registered.get(id.toLowerCase()) ?? []), id]);
    return registered;
  };
  let cursor = '0';
  do {
    const [next, members] = await redis.sscan(legacy, cursor, 'COUNT', pageSize);
    cursor = next;
    if (members.length === 0) continue;
    const byLower = members.some((m) => m.startsWith(`${PAID_BENEFICIARIES}:`))
      ? await idsFor()
      : new Map<string, string[]>();
    // One transaction per page: an entry leaves the old set only with its move.
    const pipe = redis.multi();
    for (const member of members) {
      const to = legacyPayee(member, (lower) => byLower.get(lower) ?? []);
      if (to) pipe.sadd(paidKey(keys, to.scope), to.key);
      pipe.srem(legacy, member);
      if (to) moved.rekeyed++;
      else moved.dropped++;
    }
    for (const [err] of (await pipe.exec()) ?? []) if (err) throw err;
  } while (cursor !== '0');
  return moved;
}
