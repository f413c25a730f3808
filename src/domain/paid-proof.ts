/**
 * What `paid` must carry: the proof a person copies from the chain or the service. A transfer's is
 * its transaction hash on the transfer's own chain (EVM: 0x and 64 hexadecimal characters, the
 * keccak-256 transaction hash; Solana: a base58 transaction signature of 64 bytes, ed25519); an
 * offramp's the payout reference the service returns (spec 4.4, `data.reference`, one string).
 * Anything else ("0xabc", a Solana signature on Base) is refused with the chain's own sentence.
 */
import { base58 } from '@scure/base';
import { type AssetId, assetInfo, CHAINS } from './assets.js';
import type { ServiceCall } from './request.js';
import { isReference, shorten } from './resolution.js';

const EVM_TX = /^0x[0-9a-fA-F]{64}$/;

const isSolanaSignature = (s: string): boolean => {
  try {
    return base58.decode(s).length === 64;
  } catch {
    return false;
  }
};

/** The sentence naming what `paid` needs for this call, or undefined when `proof` fits it. */
export function paidProofProblem(call: ServiceCall, proof: string): string | undefined {
  const p = proof.trim();
  if (call.kind === 'transfer') {
    const chain = assetInfo(call.body.asset as AssetId).chain;
    const { kind, name } = CHAINS[chain];
    if (kind === 'evm') {
      if (EVM_TX.test(p)) return undefined;
      if (isSolanaSignature(p))
        return `That is a Solana signature, but this transfer was on ${name}: a ${name} transaction hash is 0x followed by 64 hexadecimal characters.`;
      return `"${shorten(p)}" is not a ${name} transaction hash: it is 0x followed by 64 hexadecimal characters; copy it from the explorer.`;
    }
    if (isSolanaSignature(p)) return undefined;
    if (EVM_TX.test(p))
      return `That is an EVM (0x…) hash, but this transfer was on Solana: a Solana transaction signature is base58, 64 bytes (87 or 88 characters).`;
    return `"${shorten(p)}" is not a Solana transaction signature: it is base58, 64 bytes (87 or 88 characters); copy it from the explorer.`;
  }
  if (call.kind === 'offramp') {
    if (EVM_TX.test(p) || isSolanaSignature(p))
      return `That looks like a transaction hash, but an offramp is proved by the service's payout reference (such as OFR-…); ask its operators for it.`;
    return isReference(p)
      ? undefined
      : `"${shorten(p)}" is not a payout reference: give the service's reference as one word.`;
  }
  return isReference(p) ? undefined : `"${shorten(p)}" is not an id or reference: give it as one word.`;
}
