/**
 * `fileFingerprint` of a batch (DESIGN "States, ids and hashes"): finds the same file submitted
 * again whatever the row order (duplicate detection only). Pure. Each row's `sealHash` is made in
 * app/check-batch.ts with node:crypto: a thousand of them in pure JS cost more than the check.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { type Amount, amountToString } from './amount.js';
import { type AssetId, assetInfo } from './assets.js';
import type { BatchKind } from './batch-cells.js';
import { keyAddress, rowKey } from './destination-key.js';
import { canonicalJson } from './request.js';

const hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/**
 * SHA-256 of kind, wallet id, asset and the sorted multiset of "destination amount", each
 * destination by its key (domain/destination-key.ts). The asset names the chain, so the key's
 * address part is hashed: fingerprints stored before keys had families stay the same.
 */
export function fileFingerprint(
  kind: BatchKind,
  walletId: string,
  asset: AssetId,
  rows: readonly { destination: string; amount: Amount }[],
): string {
  const { chain } = assetInfo(asset);
  const pairs = rows.map((r) => `${keyAddress(rowKey(kind, chain, r.destination))} ${amountToString(r.amount)}`).sort();
  return hex(canonicalJson({ kind, wallet: walletId, asset, rows: pairs }));
}
