/**
 * API keys: what a key is, what it may do, and the token's shape. Pure: the store
 * keeps only a hash of the token, the edge generates the random part.
 */
import { amountTextProblem, parseAmount } from './amount.js';
import { ASSET_IDS, assetInfo, parseAssetId } from './assets.js';

export const API_SCOPES = ['requests:create', 'requests:read', 'requests:read:all', 'schedules:create'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
export const isApiScope = (s: string): s is ApiScope => (API_SCOPES as readonly string[]).includes(s);

/** What a key may do beyond its scopes; absent means "no limit of that kind" except as noted. */
export interface ApiKeyLimits {
  /** Wallet aliases; absent: every configured wallet. */
  wallets?: string[];
  /** Asset ids (base:usdc); absent: every asset. */
  assets?: string[];
  /** A decimal in the asset's own units, e.g. "5000". */
  maxAmount?: string;
  /** Open (not yet final) requests made with this key at once. */
  maxOpen: number;
  /** Destinations Rampart never paid may be requested (the card says so in bold). */
  allowNewDestinations: boolean;
}

export interface ApiKey {
  id: string;
  name: string;
  /** The Slack user the key belongs to: the requester of what it makes. */
  owner: string;
  scopes: ApiScope[];
  limits: ApiKeyLimits;
  createdAt: number;
  expiresAt: number | undefined;
  revokedAt: number | undefined;
  lastUsedAt: number | undefined;
}

/** A request made through the API says which key and whose, on the card and in reads. */
export interface ApiOrigin {
  keyId: string;
  keyName: string;
  owner: string;
}

declare module './request.js' {
  // Added beside request.ts while another branch restructures that file; fold it into
  // RequestDisplay at merge. Stored with the sealed request, so it is written in the create script.
  interface RequestDisplay {
    /** Requested through the HTTP API with this key (its owner is the requester). */
    viaApi?: ApiOrigin;
  }
}

export const DEFAULT_MAX_OPEN = 20;
export const DEFAULT_KEY_LIFETIME_MS = 90 * 86_400_000;

/** `rmp_<12 hex id>_<43 base64url chars of 256 random bits>`. */
const TOKEN = /^rmp_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
export const formatToken = (id: string, secret: string): string => `rmp_${id}_${secret}`;
export function parseToken(text: string): { id: string } | undefined {
  const m = TOKEN.exec(text);
  return m?.[1] ? { id: m[1] } : undefined;
}

export type KeyState = 'active' | 'revoked' | 'expired';
export function keyState(key: ApiKey, now: number): KeyState {
  if (key.revokedAt !== undefined) return 'revoked';
  if (key.expiresAt !== undefined && now >= key.expiresAt) return 'expired';
  return 'active';
}

export const hasScope = (key: ApiKey, scope: ApiScope): boolean =>
  key.scopes.includes(scope) || (scope === 'requests:read' && key.scopes.includes('requests:read:all'));

/** A limit of the key that refuses a request, with the sentence and the field it belongs on. */
export interface KeyRefusal {
  code: 'wallet_not_allowed' | 'asset_not_allowed' | 'amount_over_key_limit' | 'key_limits_unreadable';
  /** The request's field it belongs on; none when the key itself is at fault. */
  field?: 'wallet' | 'asset' | 'amount';
  message: string;
}

/** Why --max-amount cannot bound a request in every asset the key may use, or undefined. */
function maxAmountProblem(text: unknown, assets: readonly string[] | undefined): string | undefined {
  if (typeof text !== 'string') return '--max-amount is not stored as an amount';
  const written = amountTextProblem(text);
  if (written) return `--max-amount: ${written}`;
  const plain = text.trim().replace(/[,_]/g, '');
  if (!/[1-9]/.test(plain))
    return '--max-amount must be more than zero; give the most one request may ask for, e.g. 5000';
  const scope = (assets ?? ASSET_IDS).flatMap((a) => {
    const id = parseAssetId(a);
    return id ? [assetInfo(id)] : [];
  });
  const places = (plain.split('.')[1] ?? '').replace(/0+$/, '').length;
  const tight = scope.find((a) => places > a.decimals);
  if (tight)
    return `--max-amount ${plain} has ${places} decimal places and ${tight.code} has ${tight.decimals}; give at most ${tight.decimals}`;
  for (const a of scope) {
    try {
      parseAmount(plain, a.decimals);
    } catch (err) {
      return `--max-amount: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return undefined;
}

const stringList = (v: unknown): boolean =>
  v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/**
 * Why these limits cannot hold a request, or undefined. A key is refused at creation with this
 * sentence, and a stored key whose limits fail it refuses every create: a limit that cannot be
 * read is never skipped. Checks the shape too, since the stored key is read back from JSON.
 */
export function keyLimitsProblem(limits: ApiKeyLimits): string | undefined {
  const l = limits as unknown as Record<string, unknown>;
  if (!stringList(l.wallets)) return '--wallets is not stored as a list of wallet aliases';
  if (!stringList(l.assets) || (limits.assets ?? []).some((a) => !parseAssetId(a)))
    return '--assets is not stored as a list of assets such as base:usdc';
  if (l.maxAmount !== undefined) {
    const problem = maxAmountProblem(l.maxAmount, limits.assets);
    if (problem) return problem;
  }
  if (typeof l.maxOpen !== 'number' || !Number.isInteger(l.maxOpen) || l.maxOpen < 1 || l.maxOpen > 10_000)
    return '--max-open must be a whole number from 1 to 10000';
  if (typeof l.allowNewDestinations !== 'boolean') return '--allow-new-destinations is not stored as on or off';
  return undefined;
}

/**
 * The key's static limits on one request (deterministic: same key, same body, same answer). A
 * limit that cannot be read refuses: never skipped.
 */
export function keyLimitRefusal(
  key: ApiKey,
  r: { wallet: string; asset: string; amount: string },
): KeyRefusal | undefined {
  const { limits } = key;
  const unreadable = keyLimitsProblem(limits);
  if (unreadable)
    return {
      code: 'key_limits_unreadable',
      message: `API key ${key.name} has a stored limit Rampart cannot read (${unreadable}), so it refuses every request; an operator must revoke it and make a new one with rampart api-keys create.`,
    };
  if (limits.wallets && !limits.wallets.includes(r.wallet.toLowerCase()))
    return {
      code: 'wallet_not_allowed',
      field: 'wallet',
      message: `API key ${key.name} may use only the wallets ${limits.wallets.join(', ')}; ask its owner for a key that covers ${r.wallet}.`,
    };
  const asset = parseAssetId(r.asset);
  if (limits.assets && (!asset || !limits.assets.includes(asset)))
    return {
      code: 'asset_not_allowed',
      field: 'asset',
      message: `API key ${key.name} may use only the assets ${limits.assets.join(', ')}; ask its owner for a key that covers ${r.asset}.`,
    };
  if (limits.maxAmount !== undefined) {
    const over = {
      code: 'amount_over_key_limit',
      field: 'amount',
      message: `API key ${key.name} may request at most ${limits.maxAmount} per request; split the payment or ask an approver to request it in Slack.`,
    } as const;
    // The field check phrased a wrong amount or asset already; anything left unread refuses.
    if (!asset) return over;
    const { decimals } = assetInfo(asset);
    try {
      if (parseAmount(r.amount, decimals).units > parseAmount(limits.maxAmount, decimals).units) return over;
    } catch {
      return over;
    }
  }
  return undefined;
}
