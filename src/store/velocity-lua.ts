/**
 * Velocity limits inside the vote script (store/lua/vote.lua), so an Approve click reads nothing before its vote: the
 * request's subject (domain/velocity.ts velocitySubject) is stored on the approval at creation
 * (hash field `velocity`), every configured rule comes as ARGV, and the script picks the
 * request's own rules as domain/velocity.ts rulesFor does (test/store/velocity-lua.test.ts
 * compares the two over a grid). The ledger keys are built here from the key prefix, as
 * store/controls.ts ledgerKey does: under the hash-tagged prefix they share the approval's slot
 * on a Redis Cluster.
 */
import { type VelocityRule, type VelocitySubject, velocitySubject } from '../domain/velocity.js';
import { luaInclude } from './lua-scripts.js';

/**
 * Stored for a request that moves no money (or an entire balance with none known): no ledger.
 * includes/velocity.lua compares with the same word (test/unit/store/lua-files.test.ts checks it).
 */
export const NO_SUBJECT = 'none';

/**
 * The field for a request at its creation. A call velocitySubject cannot read (never sealed by
 * a door) gets '' and is treated as a record without the field, so the create never fails on it.
 */
export function createField(sealed: Parameters<typeof velocitySubject>[0]): string {
  try {
    return subjectField(velocitySubject(sealed));
  } catch {
    return '';
  }
}

/** The approval's `velocity` field: the subject as JSON (units as a string: exact), or NO_SUBJECT. */
export function subjectField(subject: VelocitySubject | undefined): string {
  if (!subject) return NO_SUBJECT;
  const { walletId, walletAlias, code, decimals, units } = subject;
  return JSON.stringify({ walletId, walletAlias, code, decimals, units: units.toString() });
}

/** The subject back from the field (as the script answers it with over_limit). */
export function subjectOfField(field: string | undefined): VelocitySubject | undefined {
  if (!field || field === NO_SUBJECT) return undefined;
  const s = JSON.parse(field) as Omit<VelocitySubject, 'units'> & { units: string };
  return { ...s, units: BigInt(s.units) };
}

/** The rules as the script reads them: alias or '*', code, limit (minor units), window (ms). */
export const ruleArgs = (rules: readonly Pick<VelocityRule, 'wallet' | 'code' | 'limit' | 'windowMs'>[]): string[] =>
  rules.flatMap((r) => [r.wallet, r.code, r.limit.toString(), String(r.windowMs)]);

/**
 * The Lua side, store/lua/includes/velocity.lua (vote.lua includes it): `velocityCheck` and
 * `velocityRules`, with their ARGV in its header. Its text, for a probe script that composes it.
 */
export const VELOCITY_LUA = luaInclude('velocity');

/**
 * The amounts hash's field that holds the ledger's running total (store/lua/includes/ledger.lua
 * spells it the same: test/unit/store/lua-files.test.ts checks it). A request id never starts with '#'.
 */
export const TOTAL_FIELD = '#total';
