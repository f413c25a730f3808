/**
 * The team's own wallet addresses ("To: treasury (own wallet)"), read from the
 * service at most once per process every few minutes, not once per submission: the read sits
 * before Slack's 3 s ack, and a configured wallet's addresses do not change. Kept per service
 * client, so tests with their own client never share an answer. A failed read is not kept.
 */
import type { ServiceClient } from '../service/client.js';
import { keptWallet } from './wallet-cache.js';

const KEEP_MS = 10 * 60_000;

export interface OwnWallet {
  alias: string;
  evm: string;
  svm: string;
}

type WalletReader = Pick<ServiceClient, 'getWallet'>;

/** One kept read per wallet, shared with `/balance` (app/wallet-cache.ts); a failed read is not kept. */
export function ownWallets(
  service: WalletReader,
  configured: readonly { alias: string; id: string }[],
  now: number,
): Promise<OwnWallet[]> {
  return Promise.all(
    configured.map(async (w) => {
      const x = await keptWallet(service, w.id, now, KEEP_MS);
      return { alias: w.alias, evm: x.address.evm, svm: x.address.svm };
    }),
  );
}

/** The configured wallet (other than `from`) that `receiver` is, if any. */
export function ownWalletNamed(wallets: readonly OwnWallet[], from: string, receiver: string): string | undefined {
  // EVM addresses compare without case (the checksum is only case); Solana's are exact.
  const lower = receiver.toLowerCase();
  return wallets.find((w) => w.alias !== from && (w.evm.toLowerCase() === lower || w.svm === receiver))?.alias;
}
