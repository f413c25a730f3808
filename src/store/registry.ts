/**
 * Rampart's own registries, since the service cannot list them (spec 2.5, 2.6 show no list
 * operation): identities Rampart created or saw at the service (GET /identity), and
 * beneficiaries approved through Rampart — created by it, or registered as they already exist.
 * Personal data stays out: a BVN is kept as its last four digits, an account number masked.
 */

import {
  type BeneficiaryEntry,
  beneficiaryEntry,
  type IdentityEntry,
  identityEntry,
} from '../domain/registry-entries.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';

export { type BeneficiaryEntry, beneficiaryEntry, type IdentityEntry, identityEntry };

/** What GET /identity showed, masked. */
export interface SeenIdentity {
  id: string;
  type: string;
  bvnLast4: string;
  isActive: boolean;
}

/** Adds every beneficiary or none; returns the ids already present. */
const ADD_ALL_OR_NONE = luaScript('beneficiaries-add-all');

export class Registry {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private get identitiesKey() {
    return `${this.prefix}:identities`;
  }
  private get beneficiariesKey() {
    return `${this.prefix}:beneficiaries`;
  }
  /** New beneficiaries' cooling-off (id → approvedAt, usableAt); includes/book.lua names it too. */
  private get coolingKey() {
    return `${this.prefix}:beneficiaries:cooling`;
  }

  async addIdentity(entry: IdentityEntry): Promise<void> {
    await this.redis.hset(this.identitiesKey, entry.id, JSON.stringify(identityEntry.parse(entry)));
  }

  async identity(id: string): Promise<IdentityEntry | undefined> {
    const raw = await this.redis.hget(this.identitiesKey, id);
    return raw ? identityEntry.parse(JSON.parse(raw)) : undefined;
  }

  async identities(): Promise<IdentityEntry[]> {
    const all = await this.redis.hvals(this.identitiesKey);
    return all.map((r) => identityEntry.parse(JSON.parse(r))).sort((a, b) => b.createdAt - a.createdAt);
  }

  /**
   * Records what GET /identity said about an identity (masked: the BVN's last four digits only),
   * keeping the name and creator of one Rampart created. Returns the entry as stored.
   */
  async rememberIdentity(seen: SeenIdentity, by: string, at: number): Promise<IdentityEntry> {
    const entry = await this.identityAsSeen(seen, by, at);
    await this.addIdentity(entry);
    return entry;
  }

  /** The entry rememberIdentity would store, without storing it (a check that must change nothing). */
  async identityAsSeen(seen: SeenIdentity, by: string, at: number): Promise<IdentityEntry> {
    const before = await this.identity(seen.id);
    return before
      ? { ...before, bvnLast4: seen.bvnLast4, isActive: seen.isActive, checkedAt: at }
      : { ...seen, name: '', createdBy: by, createdAt: at, source: 'service', checkedAt: at };
  }

  /** Case-insensitive search by name, id or the BVN's last digits, for the identity pickers. */
  async searchIdentities(query: string, limit = 100): Promise<IdentityEntry[]> {
    const q = query.trim().toLowerCase();
    const all = await this.identities();
    const hits = q ? all.filter((e) => `${e.name} ${e.id} ${e.bvnLast4}`.toLowerCase().includes(q)) : all;
    return hits.slice(0, limit);
  }

  /** Records a beneficiary; new (absent until now) with `cooldownMs`, it cools off that long. */
  async addBeneficiary(entry: BeneficiaryEntry, cooldownMs?: number): Promise<void> {
    if (cooldownMs && (await this.addBeneficiariesIfAbsent([entry], cooldownMs)).length === 0) return;
    await this.redis.hset(this.beneficiariesKey, entry.id, JSON.stringify(beneficiaryEntry.parse(entry)));
  }

  /**
   * Adds every entry, or none when any id is already registered (one atomic script, so one
   * approval registers a whole file or nothing). Returns the ids already there. With
   * `cooldownMs`, each one added cools off that long from Redis's clock.
   */
  async addBeneficiariesIfAbsent(entries: BeneficiaryEntry[], cooldownMs?: number): Promise<string[]> {
    const args = entries.flatMap((e) => [e.id, JSON.stringify(beneficiaryEntry.parse(e))]);
    const taken = (await evalScript(
      this.redis,
      ADD_ALL_OR_NONE,
      2,
      this.beneficiariesKey,
      this.coolingKey,
      cooldownMs ? String(cooldownMs) : '',
      ...args,
    )) as string[];
    return taken;
  }

  /** A new beneficiary's cooling-off (Redis time), if it had one: usable from `usableAt`. */
  async beneficiaryCooling(id: string): Promise<{ approvedAt: number; usableAt: number } | undefined> {
    const raw = await this.redis.hget(this.coolingKey, id);
    if (!raw) return undefined;
    const v = JSON.parse(raw) as { approvedAt?: unknown; usableAt?: unknown };
    return typeof v.approvedAt === 'number' && typeof v.usableAt === 'number'
      ? { approvedAt: v.approvedAt, usableAt: v.usableAt }
      : undefined;
  }

  async beneficiary(id: string): Promise<BeneficiaryEntry | undefined> {
    const raw = await this.redis.hget(this.beneficiariesKey, id);
    return raw ? beneficiaryEntry.parse(JSON.parse(raw)) : undefined;
  }

  async beneficiaries(): Promise<BeneficiaryEntry[]> {
    const all = await this.redis.hvals(this.beneficiariesKey);
    return all.map((r) => beneficiaryEntry.parse(JSON.parse(r))).sort((a, b) => a.label.localeCompare(b.label));
  }

  /** Case-insensitive search over label, holder, bank, identity, id and last digits, for the offramp picker. */
  async searchBeneficiaries(query: string, limit = 100): Promise<BeneficiaryEntry[]> {
    const q = query.trim().toLowerCase();
    const all = await this.beneficiaries();
    const hits = q
      ? all.filter((b) =>
          `${b.label} ${b.holderName} ${b.bankName} ${b.identityName} ${b.id} ${b.accountMasked}`
            .toLowerCase()
            .includes(q),
        )
      : all;
    return hits.slice(0, limit);
  }

  /** A form in progress between two modal steps, kept out of Slack's private_metadata. */
  async saveDraft(token: string, value: unknown, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}:draft:${token}`, JSON.stringify(value), 'PX', ttlMs);
  }

  async deleteDraft(token: string): Promise<void> {
    await this.redis.del(`${this.prefix}:draft:${token}`);
  }

  async loadDraft(token: string): Promise<unknown> {
    const raw = await this.redis.get(`${this.prefix}:draft:${token}`);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  }
}
