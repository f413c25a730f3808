/**
 * Receiver address checks per chain kind: EVM 0x + 40 hex with the EIP-55 checksum when mixed
 * case; Solana base58 decoding to exactly 32 bytes.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58 } from '@scure/base';
import { ASSET_IDS, type Asset, CHAINS, type ChainKind } from './assets.js';

const EVM = /^0x[0-9a-fA-F]{40}$/;

export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString('hex');
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const ch = lower[i] as string;
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

const EVM_FORM = 'an EVM address is 0x followed by 40 hexadecimal characters.';
const EVM_FORM_LOWER = 'an EVM address starts with a lower-case 0x, followed by 40 hexadecimal characters.';

/** What is wrong with the value itself: its start, a character that is not hex, or its length. */
function evmFormProblem(address: string): string {
  if (!/^0x/i.test(address)) return `It does not start with 0x: ${EVM_FORM}`;
  // "0X" is refused, not rewritten: what is sealed and sent is exactly what was typed, and
  // EIP-55 and the service both write the prefix as a lower-case 0x.
  if (address.startsWith('0X')) return `It starts with a capital 0X: ${EVM_FORM_LOWER}`;
  const bad = /[^0-9a-fA-F]/.exec(address.slice(2));
  if (bad) return `Not hexadecimal ('${bad[0]}' at character ${bad.index + 3}): ${EVM_FORM}`;
  return `It has ${address.length - 2} characters after 0x: ${EVM_FORM}`;
}

/** Why an EVM address is refused, or undefined when it is valid. */
export function evmAddressProblem(address: string): string | undefined {
  if (!EVM.test(address)) return evmFormProblem(address);
  const body = address.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && toChecksumAddress(address) !== address) {
    return 'This EVM address fails its EIP-55 checksum (a character is mistyped); copy it again from the source.';
  }
  return undefined;
}

export function solanaAddressProblem(address: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    const bad = /[^1-9A-HJ-NP-Za-km-z]/.exec(address);
    const where = bad ? `Not base58 ('${bad[0]}' at character ${bad.index + 1}): ` : '';
    return `${where}A Solana address is written in base58 (no 0, O, I or l); copy it again from the source.`;
  }
  return bytes.length === 32 ? undefined : `A Solana address decodes to 32 bytes; this one decodes to ${bytes.length}.`;
}

export const addressProblem = (kind: ChainKind, address: string): string | undefined =>
  kind === 'evm' ? evmAddressProblem(address.trim()) : solanaAddressProblem(address.trim());

export const isValidAddress = (kind: ChainKind, address: string): boolean =>
  addressProblem(kind, address) === undefined;

/** 0x12ab…cdef — for places where the full address would crowd the text; links carry it whole. */
export const shortAddress = (address: string): string =>
  address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;

/**
 * The receiver's problem as the transfer form and a batch file's rows both say it: the other
 * chain's address named as such, else what is wrong with the value and the asset's chain.
 */
export function receiverProblem(asset: Pick<Asset, 'id' | 'chain' | 'token'>, receiver: string): string | undefined {
  const problem = addressProblem(CHAINS[asset.chain].kind, receiver);
  if (!problem) return undefined;
  return otherChainAddress(asset, receiver) ?? `${problem} (${asset.id} is on ${CHAINS[asset.chain].name})`;
}

/**
 * An address valid on the other kind of chain gets a sentence naming that chain
 * and the asset to choose, rather than the generic format error. undefined when it is not one.
 */
export function otherChainAddress(asset: Pick<Asset, 'id' | 'chain' | 'token'>, address: string): string | undefined {
  const a = address.trim();
  const chain = CHAINS[asset.chain];
  if (chain.kind === 'evm' && solanaAddressProblem(a) === undefined) {
    const on = ASSET_IDS.includes(`solana:${asset.token}` as (typeof ASSET_IDS)[number])
      ? `choose solana:${asset.token} to send on Solana`
      : 'Solana has no such asset';
    return `That is a Solana address, but ${asset.id} is on ${chain.name}: ${on}, or paste a 0x address for ${chain.name}.`;
  }
  if (chain.kind === 'svm' && EVM.test(a)) {
    const evm = ASSET_IDS.find((id) => id.endsWith(`:${asset.token}`) && !id.startsWith('solana:')) ?? 'base:usdc';
    return `That is an EVM (0x…) address, but ${asset.id} is on Solana: choose an EVM asset such as ${evm}, or paste a Solana address.`;
  }
  return undefined;
}
