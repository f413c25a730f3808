/**
 * Rampart's own registries, since the service cannot list them (spec 2.5, 2.6 show no list
 * operation): identities Rampart created, and beneficiaries approved through Rampart.
 * Personal data stays out: a BVN is kept as its last four digits, an account number masked.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';

export const identityEntry = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  bvnLast4: z.string().regex(/^\d{4}$/),
  createdBy: z.string(),
  createdAt: z.number(),
});
export type IdentityEntry = z.infer<typeof identityEntry>;

export const beneficiaryEntry = z.object({
  id: z.string(),
  label: z.string(),
  identityId: z.string(),
  identityName: z.string(),
  bankName: z.string(),
  accountMasked: z.string(),
  holderName: z.string(),
  createdBy: z.string(),
  approvedBy: z.string(),
  createdAt: z.number(),
  requestId: z.string(),
});
export type BeneficiaryEntry = z.infer<typeof beneficiaryEntry>;

export class Registry {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private get identitiesKey() {
    return `${this.prefix}:identities`;
  }
  private get beneficiariesKey() {
    return `${this.prefix}:beneficiaries`;
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

  async addBeneficiary(entry: BeneficiaryEntry): Promise<void> {
    await this.redis.hset(this.beneficiariesKey, entry.id, JSON.stringify(beneficiaryEntry.parse(entry)));
  }

  async beneficiary(id: string): Promise<BeneficiaryEntry | undefined> {
    const raw = await this.redis.hget(this.beneficiariesKey, id);
    return raw ? beneficiaryEntry.parse(JSON.parse(raw)) : undefined;
  }

  async beneficiaries(): Promise<BeneficiaryEntry[]> {
    const all = await this.redis.hvals(this.beneficiariesKey);
    return all.map((r) => beneficiaryEntry.parse(JSON.parse(r))).sort((a, b) => a.label.localeCompare(b.label));
  }

  /** Case-insensitive search over label, holder, bank and identity, for the offramp picker. */
  async searchBeneficiaries(query: string, limit = 100): Promise<BeneficiaryEntry[]> {
    const q = query.trim().toLowerCase();
    const all = await this.beneficiaries();
    const hits = q
      ? all.filter((b) => `${b.label} ${b.holderName} ${b.bankName} ${b.identityName}`.toLowerCase().includes(q))
      : all;
    return hits.slice(0, limit);
  }

  /** A form in progress between two modal steps, kept out of Slack's private_metadata. */
  async saveDraft(token: string, value: unknown, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}:draft:${token}`, JSON.stringify(value), 'PX', ttlMs);
  }

  async loadDraft(token: string): Promise<unknown> {
    const raw = await this.redis.get(`${this.prefix}:draft:${token}`);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  }
}
