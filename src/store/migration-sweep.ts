/**
 * The start-up migration sweep: every record written before approvals
 * had executions becomes one in place. It reads the whole request history, so a sweep that
 * migrated everything it met leaves a marker naming the record format it completed, and later
 * worker starts skip it; a newer format (a different RECORD_VERSION) sweeps again. Records an old
 * web process writes after the marker are migrated by the first script that touches them
 * (store/lua/includes/migrate.lua), so the marker never leaves one unreadable.
 */
import { executionId } from '../domain/approval.js';
import { luaScript } from './lua-scripts.js';
import { type PayeesMoved, sweepLegacyPayees } from './payees-sweep.js';
import type { RedisClient } from './redis.js';
import type { StoreKeys } from './store-keys.js';

/**
 * The record format the scripts write (`v`: store/lua/create.lua, includes/migrate.lua). Format 3
 * stores the approval's `shape`.
 */
export const RECORD_VERSION = 3;

const MIGRATE = luaScript('migrate');

/** MIGRATE's answers besides 0 (migrated now) and 1 (already in the new format). */
const GONE = -1;
const NOT_MIGRATED = -2;

export interface SweepResult {
  /** False when the marker said an earlier sweep completed this format: nothing was read. */
  swept: boolean;
  migrated: number;
  /** Records the sweep met and could not migrate (the script failed or left them old): no marker. */
  left: number;
  /** Paid-before entries written before destination keys, moved over or dropped (store/payees-sweep.ts). */
  payees: PayeesMoved;
}

/** The marker key: under the prefix (hash-tagged: the same cluster slot as the records). */
export const sweepMarkerKey = (keys: StoreKeys): string => `${keys.prefix}:migrated`;

export async function sweepOldRecords(
  redis: RedisClient,
  keys: StoreKeys,
  now: () => number,
  pageSize = 500,
): Promise<SweepResult> {
  // Not behind the marker: an older process may add to the old paid-before set during a rollout,
  // and reading an absent set costs one round trip.
  const payees = await sweepLegacyPayees(redis, keys);
  const marker = sweepMarkerKey(keys);
  if ((await redis.get(marker)) === String(RECORD_VERSION)) return { swept: false, migrated: 0, left: 0, payees };
  let migrated = 0;
  let left = 0;
  for (let offset = 0; ; offset += pageSize) {
    const ids = await redis.zrange(keys.recent, String(offset), String(offset + pageSize - 1));
    const pipe = redis.pipeline();
    for (const id of ids)
      pipe.eval(
        MIGRATE,
        4,
        keys.approval(id),
        keys.execution(executionId(id, 1)),
        keys.ready,
        keys.executing,
        id,
        String(now()),
      );
    for (const [err, had] of (await pipe.exec()) ?? []) {
      if (err || had === NOT_MIGRATED) left++;
      else if (had === 0) migrated++;
      else if (had !== 1 && had !== GONE) left++;
    }
    if (ids.length < pageSize) break;
  }
  // Only a sweep that left nothing old behind may spare later starts the read.
  if (left === 0) await redis.set(marker, String(RECORD_VERSION));
  return { swept: true, migrated, left, payees };
}

/**
 * Puts every open request in its requester's open set (StoreKeys.openBy), for requests created
 * before the create script claimed that place itself. Safe at any time: adding is idempotent,
 * and a member that is no longer in the open set is not counted (and is dropped by the next create).
 */
export async function countOpenByRequester(redis: RedisClient, keys: StoreKeys): Promise<void> {
  const ids = await redis.smembers(keys.open);
  if (ids.length === 0) return;
  const reads = redis.pipeline();
  for (const id of ids) reads.hget(keys.approval(id), 'requester');
  const owners = (await reads.exec()) ?? [];
  const writes = redis.pipeline();
  ids.forEach((id, i) => {
    const [err, requester] = owners[i] ?? [null, null];
    if (!err && typeof requester === 'string') writes.sadd(keys.openBy(requester), id);
  });
  const failed = ((await writes.exec()) ?? []).find(([err]) => err)?.[0];
  if (failed) throw failed;
}
