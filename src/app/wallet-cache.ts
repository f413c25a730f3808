/**
 * A wallet's record (address, active, what it may do) kept briefly per service client: `/balance` read it beside the balances on every command, two service calls
 * where the balances alone change. Kept for seconds, not minutes, because "Inactive" and the
 * capabilities are shown; a failed read (a 404 for a typo included) is never kept.
 */
import type { ServiceClient } from '../service/client.js';
import type { Wallet } from '../service/schemas.js';

export const WALLET_KEEP_MS = 30_000;

type WalletReader = Pick<ServiceClient, 'getWallet'>;

const kept = new WeakMap<WalletReader, Map<string, { at: number; wallet: Promise<Wallet> }>>();

/** `keepMs`: how old a kept read may be for this caller (own-wallets keeps addresses longer). */
export function keptWallet(service: WalletReader, id: string, now: number, keepMs = WALLET_KEEP_MS): Promise<Wallet> {
  let byId = kept.get(service);
  if (!byId) {
    byId = new Map();
    kept.set(service, byId);
  }
  const hit = byId.get(id);
  if (hit && now - hit.at >= 0 && now - hit.at < keepMs) return hit.wallet;
  const wallet = service.getWallet(id);
  const entry = { at: now, wallet };
  byId.set(id, entry);
  wallet.catch(() => {
    if (byId.get(id) === entry) byId.delete(id);
  });
  return wallet;
}
