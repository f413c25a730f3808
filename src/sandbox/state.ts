/**
 * The sandbox's in-memory world and the rules of each operation. Amounts are held as bigint
 * base units, so balances move exactly; a Refusal carries the HTTP status the server answers with.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { base58 } from '@scure/base';
import { addressProblem } from '../domain/address.js';
import { amountFromNumber, amountToString, amountToWire } from '../domain/amount.js';
import { type AssetId, assetInfo, CHAINS, explorerTxUrl } from '../domain/assets.js';
import type * as s from '../service/schemas.js';
import {
  CHAIN_NUMBERS,
  SEED_ACCOUNTS,
  SEED_RATES,
  SEED_WALLETS,
  type SeedAccount,
  type SeedWallet,
  TOKEN_NAMES,
} from './seed.js';

export class Refusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'Refusal';
    this.status = status;
  }
}

export interface SandboxSeed {
  wallets?: readonly SeedWallet[];
  accounts?: readonly SeedAccount[];
  rates?: Readonly<Record<string, number>>;
}

/** Mutable, so tests can switch a capability off or deactivate a wallet mid-test. */
export type WalletRecord = Omit<SeedWallet, 'balances'>;
/** Base units of the asset (spec 2.4 figures times 10^decimals). */
export interface Holding {
  balance: bigint;
  available: bigint;
  debt: bigint;
}
export interface IdentityRecord {
  id: string;
  isActive: boolean;
  type: string;
  name: string;
  details: { bvn: string; dob: string };
}
export interface BeneficiaryRecord {
  id: string;
  identityId: string;
  currency: string;
  details: s.BankDetails;
}
export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Parsed JSON; the raw text when it was not JSON; undefined when empty. */
  body: unknown;
  at: string;
}
export interface TransferRecord extends s.TransferRequest {
  hash: string;
  link: string;
  units: bigint;
}
export interface OfframpRecord extends s.OfframpRequest {
  reference: string;
  units: bigint;
}

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
const figure = (units: bigint, decimals: number): number => amountToWire({ units, decimals });
const figures = (h: Holding, decimals: number) => ({
  balance: figure(h.balance, decimals),
  available: figure(h.available, decimals),
  debt: figure(h.debt, decimals),
});

/** The request's amount in base units; refuses figures finer than the asset's decimals. */
function exactUnits(value: number, decimals: number): bigint {
  if (!(value < 1e15)) throw new Refusal(400, `amount: ${value} is too large`);
  const amount = amountFromNumber(value, decimals);
  if (amountToWire(amount) !== value)
    throw new Refusal(400, `amount: ${value} has more than ${decimals} decimal places`);
  return amount.units;
}

export class SandboxState {
  readonly wallets = new Map<string, WalletRecord>();
  readonly balances = new Map<string, Map<AssetId, Holding>>();
  readonly identities = new Map<string, IdentityRecord>();
  readonly beneficiaries = new Map<string, BeneficiaryRecord>();
  readonly accounts: SeedAccount[];
  readonly rates: Map<string, number>;
  readonly users: Array<{ code: number; email: string; name: string }> = [];
  readonly transfers: TransferRecord[] = [];
  readonly offramps: OfframpRecord[] = [];
  readonly received: ReceivedRequest[] = [];

  constructor(seed: SandboxSeed = {}) {
    for (const { balances, ...wallet } of seed.wallets ?? SEED_WALLETS) {
      this.wallets.set(wallet.id, { ...wallet });
      const holdings = new Map<AssetId, Holding>();
      for (const b of balances) {
        const { decimals } = assetInfo(b.asset);
        const units = (n: number) => amountFromNumber(n, decimals).units;
        holdings.set(b.asset, { balance: units(b.balance), available: units(b.available), debt: units(b.debt) });
      }
      this.balances.set(wallet.id, holdings);
    }
    this.accounts = [...(seed.accounts ?? SEED_ACCOUNTS)];
    this.rates = new Map(Object.entries(seed.rates ?? SEED_RATES).map(([k, v]) => [k.toUpperCase(), v]));
  }

  /** Spec 2.4 figures of one holding, for tests; undefined when the wallet does not hold the asset. */
  balanceOf(walletId: string, asset: AssetId): { balance: number; available: number; debt: number } | undefined {
    const holding = this.balances.get(walletId)?.get(asset);
    return holding && figures(holding, assetInfo(asset).decimals);
  }

  createUser(req: s.CreateUserRequest): { code: number; key: string } {
    const user = { code: randomInt(100_000, 1_000_000), email: req.email, name: req.name };
    this.users.push(user);
    return { code: user.code, key: `sk_sandbox_${hex(24)}` };
  }

  transfer(req: s.TransferRequest): s.TransferResult {
    this.#usableWallet(req.wallet_id, 'transfer');
    const asset = assetInfo(req.asset);
    const kind = CHAINS[asset.chain].kind;
    const problem = addressProblem(kind, req.receiver);
    if (problem) throw new Refusal(400, `receiver: not a valid ${CHAINS[asset.chain].name} address. ${problem}`);
    const holding = this.#holding(req.wallet_id, req.asset);
    // spec 4.2: -1 transfers the entire available balance
    const units = req.amount === -1 ? holding.available : exactUnits(req.amount, asset.decimals);
    this.#debit(holding, units, asset.decimals);
    const hash = kind === 'evm' ? `0x${hex(32)}` : base58.encode(randomBytes(64));
    const link = explorerTxUrl(asset.chain, hash);
    this.transfers.push({ ...req, hash, link, units });
    return { hash, link };
  }

  createBeneficiary(req: s.CreateBeneficiaryRequest): { id: string } {
    const identity = this.identities.get(req.identity_id);
    if (!identity) throw new Refusal(404, `identity ${req.identity_id} not found`);
    if (!identity.isActive) throw new Refusal(403, `identity ${req.identity_id} is not active`);
    const id = `ben_${hex(8)}`;
    this.beneficiaries.set(id, {
      id,
      identityId: identity.id,
      currency: req.currency.toUpperCase(),
      details: req.details,
    });
    return { id };
  }

  offramp(req: s.OfframpRequest): s.OfframpResult {
    this.#usableWallet(req.wallet_id, 'offramp');
    if (!this.beneficiaries.has(req.beneficiary_id)) {
      throw new Refusal(404, `beneficiary ${req.beneficiary_id} not found`);
    }
    const { decimals } = assetInfo(req.asset);
    const holding = this.#holding(req.wallet_id, req.asset);
    const units = exactUnits(req.amount, decimals);
    this.#debit(holding, units, decimals);
    const reference = `OFR-${hex(6).toUpperCase()}`;
    this.offramps.push({ ...req, reference, units });
    return { reference };
  }

  createIdentity(req: s.CreateIdentityRequest): { id: string; link: null } {
    const id = `idn_${hex(8)}`;
    // spec 2.6: type is the lowercase form of the type given at creation
    this.identities.set(id, { id, isActive: true, type: req.type.toLowerCase(), name: req.name, details: req.details });
    return { id, link: null };
  }

  getIdentity(id: string): s.Identity {
    const identity = this.identities.get(id);
    if (!identity) throw new Refusal(404, `identity ${id} not found`);
    return { is_active: identity.isActive, id, type: identity.type, details: { bvn: identity.details.bvn } };
  }

  lookup(req: s.LookupRequest): s.AccountLookup {
    const account = this.accounts.find((a) => a.bankCode === req.bank_code && a.accountNumber === req.account_number);
    if (!account) throw new Refusal(404, 'account not found');
    const { bankCode, bankName, accountNumber, accountName } = account;
    return { bank_code: bankCode, bank_name: bankName, account_number: accountNumber, account_name: accountName };
  }

  getWallet(id: string): s.Wallet {
    const w = this.#wallet(id);
    const { reference, isActive, evm, svm, transfer, swap, offramp } = w;
    return { id, reference, is_active: isActive, address: { evm, svm }, transfer, swap, offramp };
  }

  getBalances(id: string): s.BalanceEntry[] {
    this.#wallet(id);
    return [...(this.balances.get(id) ?? new Map<AssetId, Holding>())].map(([assetId, h]) => {
      const { chain, token, code, decimals } = assetInfo(assetId);
      return {
        id: assetId,
        name: TOKEN_NAMES[token],
        code,
        blockchain: { id: CHAIN_NUMBERS[chain], name: CHAINS[chain].name },
        ...figures(h, decimals),
      };
    });
  }

  rate(currency: string): { rate: number } {
    const rate = this.rates.get(currency.trim().toUpperCase());
    if (rate === undefined) throw new Refusal(400, `currency: "${currency}" is not supported; use NGN`);
    return { rate };
  }

  #wallet(id: string): WalletRecord {
    const wallet = this.wallets.get(id);
    if (!wallet) throw new Refusal(404, `wallet ${id} not found`);
    return wallet;
  }

  #usableWallet(id: string, capability: 'transfer' | 'offramp'): WalletRecord {
    const wallet = this.#wallet(id);
    if (!wallet.isActive) throw new Refusal(403, `wallet ${id} is not active`);
    if (!wallet[capability]) throw new Refusal(403, `${capability}s are disabled for this wallet`);
    return wallet;
  }

  #holding(walletId: string, asset: AssetId): Holding {
    const holding = this.balances.get(walletId)?.get(asset);
    if (!holding) throw new Refusal(400, `asset: this wallet holds no ${asset}`);
    return holding;
  }

  #debit(holding: Holding, units: bigint, decimals: number): void {
    if (units <= 0n || units > holding.available) {
      const available = amountToString({ units: holding.available, decimals });
      throw new Refusal(422, `insufficient available balance: ${available} available`);
    }
    holding.balance -= units;
    holding.available -= units;
  }
}
