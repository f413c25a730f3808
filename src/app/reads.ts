/**
 * Read-only use cases behind `/balance`, `/rate`, `/lookup` and the CLI's read commands. Each
 * returns a discriminated outcome; the Slack and CLI edges phrase it. Service failures other
 * than the expected "not found" are thrown as ServiceError for the edge's error sentence.
 */
import { type NigerianAccount, parseAccountWords } from '../domain/bank-account.js';
import { resolveWallet, type WalletAlias } from '../domain/wallets.js';
import type { ServiceClient } from '../service/client.js';
import { isServiceError } from '../service/errors.js';
import {
  type AccountLookup,
  type BalanceEntry,
  type Currency,
  currency,
  currencyWireForm,
  type Wallet,
} from '../service/schemas.js';
import { keptWallet } from './wallet-cache.js';

export interface ReadDeps {
  service: Pick<ServiceClient, 'getWallet' | 'getBalances' | 'getOnrampRate' | 'lookupAccount'>;
  wallets: readonly WalletAlias[];
  /** For how long a wallet's record is kept (wallet-cache.ts); Date.now when not given. */
  now?: () => number;
}

export interface WalletView {
  alias: string | undefined;
  wallet: Wallet;
  balances: BalanceEntry[];
}

/** A name that is no alias and that the service does not know: most likely a typo. */
export interface UnknownWallet {
  kind: 'unknown-wallet';
  id: string;
  aliases: string[];
  serviceMessage: string | undefined;
}

/** Fetches one part of a wallet named by alias or id; a 404 for a non-alias becomes UnknownWallet. */
export async function readWalletPart<T>(
  deps: Pick<ReadDeps, 'wallets'>,
  target: string,
  fetch: (id: string, alias: string | undefined) => Promise<T>,
): Promise<{ kind: 'found'; alias: string | undefined; id: string; data: T } | UnknownWallet> {
  const { alias, id } = resolveWallet(deps.wallets, target);
  try {
    return { kind: 'found', alias, id, data: await fetch(id, alias) };
  } catch (err) {
    if (isServiceError(err) && err.status === 404 && alias === undefined) {
      return {
        kind: 'unknown-wallet',
        id,
        aliases: deps.wallets.map((w) => w.alias),
        serviceMessage: err.serviceMessage,
      };
    }
    throw err;
  }
}

const walletView = async (deps: ReadDeps, alias: string | undefined, id: string): Promise<WalletView> => {
  // The balances change; the wallet's record is kept briefly (one call where two were made).
  const now = (deps.now ?? Date.now)();
  const [wallet, balances] = await Promise.all([keptWallet(deps.service, id, now), deps.service.getBalances(id)]);
  return { alias, wallet, balances };
};

export type BalanceRead =
  | { kind: 'wallets'; views: WalletView[]; failures: { alias: string; error: unknown }[] }
  | UnknownWallet
  | { kind: 'too-many'; problem: string };

/** One wallet (alias or id) or, with no target, every configured wallet; one failing does not hide the rest. */
export async function readBalances(deps: ReadDeps, targets: string[]): Promise<BalanceRead> {
  if (targets.length > 1) return { kind: 'too-many', problem: 'Give one wallet at most.' };
  const [target] = targets;
  if (target !== undefined) {
    const found = await readWalletPart(deps, target, (id, alias) => walletView(deps, alias, id));
    if (found.kind === 'unknown-wallet') return found;
    return { kind: 'wallets', views: [found.data], failures: [] };
  }
  const settled = await Promise.allSettled(deps.wallets.map((w) => walletView(deps, w.alias, w.id)));
  const views: WalletView[] = [];
  const failures: { alias: string; error: unknown }[] = [];
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') views.push(r.value);
    else failures.push({ alias: deps.wallets[i]?.alias ?? '?', error: r.reason });
  });
  // Nothing to show at all: the first failure is the answer.
  if (views.length === 0 && settled[0]?.status === 'rejected') throw settled[0].reason;
  return { kind: 'wallets', views, failures };
}

export type RateRead = { kind: 'rate'; currency: Currency; rate: number } | { kind: 'bad-currency'; given: string };

/** spec 4.10: NGN is the only currency quoted; any case is accepted from people. */
export async function readRate(deps: Pick<ReadDeps, 'service'>, given = 'NGN'): Promise<RateRead> {
  const parsed = currency.safeParse(given);
  if (!parsed.success) return { kind: 'bad-currency', given };
  const { rate } = await deps.service.getOnrampRate(parsed.data);
  return { kind: 'rate', currency: parsed.data, rate };
}

export type LookupRead =
  | { kind: 'found'; account: AccountLookup }
  | { kind: 'bad-input'; problem: string }
  | { kind: 'no-account'; account: NigerianAccount; serviceMessage: string | undefined };

/** spec 4.7: verifies a Nigerian account; a 404 means the bank knows no such account. */
export async function lookupAccount(
  deps: Pick<ReadDeps, 'service'>,
  input: string | NigerianAccount,
): Promise<LookupRead> {
  const account = typeof input === 'string' ? parseAccountWords(input) : input;
  if ('problem' in account) return { kind: 'bad-input', problem: account.problem };
  try {
    const found = await deps.service.lookupAccount({
      bank_code: account.bankCode,
      account_number: account.accountNumber,
      currency: currencyWireForm('NGN'),
    });
    return { kind: 'found', account: found };
  } catch (err) {
    if (isServiceError(err) && err.status === 404)
      return { kind: 'no-account', account, serviceMessage: err.serviceMessage };
    throw err;
  }
}
