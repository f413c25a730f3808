/**
 * `fileFingerprint` of a batch (DESIGN "States, ids and hashes"): finds the same file submitted
 * again whatever the row order (duplicate detection only). Pure. Each row's `sealHash` is made in
 * app/check-batch.ts with node:crypto: a thousand of them in pure JS cost more than the check.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { type Amount, amountToString } from './amount.js';
import type { BatchKind } from './batch-cells.js';
import { canonicalJson } from './request.js';

const hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** EVM addresses are one address in any case; Solana's base58 and beneficiary ids are kept as they are. */
export const destinationKey = (destination: string): string =>
  /^0x[0-9a-fA-F]{40}$/.test(destination) ? destination.toLowerCase() : destination;

/** SHA-256 of kind, wallet id, asset and the sorted multiset of "destination amount". */
export function fileFingerprint(
  kind: BatchKind,
  walletId: string,
  asset: string,
  rows: readonly { destination: string; amount: Amount }[],
): string {
  const pairs = rows.map((r) => `${destinationKey(r.destination)} ${amountToString(r.amount)}`).sort();
  return hex(canonicalJson({ kind, wallet: walletId, asset, rows: pairs }));
}
