/**
 * One identity per destination: its chain family and its address in canonical form. Paid-before,
 * new destinations (step-up, API keys), repeats and same-file rows all compare these keys, never
 * the text as typed. Pure.
 *
 * EVM addresses are hexadecimal: letter case carries only the EIP-55 checksum, so a valid address
 * in any case is one key (lower-cased). A Solana address is base58, where case is part of the
 * number: two addresses differing only in case are two accounts, so the key keeps it exactly.
 * A beneficiary is the service's id, kept exactly.
 */
import { InputError } from '../errors.js';
import { addressProblem } from './address.js';
import { assetInfo, CHAINS, type ChainId } from './assets.js';
import type { ServiceCall } from './request.js';

/**
 * The paid-before scope of beneficiaries paid by an offramp; a transfer's scope is its chain (an
 * EVM address paid on Base is not thereby known on Ethereum: a contract may exist on one only).
 * "beneficiary" is no chain id, so the two never meet.
 */
export const PAID_BENEFICIARIES = 'beneficiary';

const FAMILY = { evm: 'evm', svm: 'solana' } as const;

// An EIP-55 check is a keccak hash (tens of µs on a busy host), and a 1,000-row batch asks for
// each row's key several times (warnings, fingerprint, index, executions): valid EVM keys are
// remembered. Invisible to callers: a key depends on the text alone.
const evmKeys = new Map<string, string>();
const EVM_KEYS_KEPT = 20_000;

/** `evm:0x99ed…dedcf` or `solana:7Zb8…D51r`; throws InputError, with the address's problem, for one that is not valid. */
export function destinationKey(chain: ChainId, address: string): string {
  const kind = CHAINS[chain].kind;
  const a = address.trim();
  const known = kind === 'evm' ? evmKeys.get(a) : undefined;
  if (known) return known;
  const problem = addressProblem(kind, a);
  if (problem) throw new InputError(problem, 'receiver');
  if (kind !== 'evm') return `${FAMILY[kind]}:${a}`;
  const key = `${FAMILY[kind]}:${a.toLowerCase()}`;
  if (evmKeys.size >= EVM_KEYS_KEPT) evmKeys.clear();
  evmKeys.set(a, key);
  return key;
}

/** `beneficiary:ben_…`: the service's id exactly. */
export const beneficiaryKey = (id: string): string => `beneficiary:${id.trim()}`;

const isChain = (scope: string): scope is ChainId => Object.hasOwn(CHAINS, scope);

/** The key of `destination` in `scope`: a chain id (an address), or PAID_BENEFICIARIES (a beneficiary id). */
export function keyIn(scope: string, destination: string): string {
  if (scope === PAID_BENEFICIARIES) return beneficiaryKey(destination);
  if (isChain(scope)) return destinationKey(scope, destination);
  throw new InputError(`"${scope}" is neither a chain nor beneficiaries.`, 'scope');
}

/** The key of a checked batch row's destination: an address on `chain`, or a beneficiary id. */
export const rowKey = (kind: 'transfers' | 'offramps', chain: ChainId, destination: string): string =>
  kind === 'transfers' ? destinationKey(chain, destination) : beneficiaryKey(destination);

/**
 * `<scope> <key>`: where a payment goes as paid-before compares it; for text that is not a valid
 * destination (records made outside the form's checks), `<scope> <text>`, equal only to itself.
 */
export function paidAs(scope: string, destination: string): string {
  return `${scope} ${keyOrUndefined(scope, destination) ?? destination}`;
}

function keyOrUndefined(scope: string, destination: string): string | undefined {
  try {
    return keyIn(scope, destination);
  } catch (err) {
    if (err instanceof InputError) return undefined;
    throw err;
  }
}

/** A key without its family: what the repeat and same-file digests have always hashed. */
export const keyAddress = (key: string): string => key.slice(key.indexOf(':') + 1);

/** Where a payment goes: its paid-before scope and its destination key. */
export interface PaidDestination {
  scope: string;
  key: string;
}

/**
 * Where a sealed call pays, or undefined for one that moves no money. A receiver that is not a
 * valid address (only records made outside the form's checks hold one) has no key either: it was
 * never paid, and nothing is compared with it.
 */
export function callDestination(call: ServiceCall): PaidDestination | undefined {
  if (call.kind === 'offramp') return { scope: PAID_BENEFICIARIES, key: beneficiaryKey(call.body.beneficiary_id) };
  if (call.kind !== 'transfer') return undefined;
  const { chain } = assetInfo(call.body.asset);
  const key = isChain(chain) ? keyOrUndefined(chain, call.body.receiver) : undefined;
  return key ? { scope: chain, key } : undefined;
}

/**
 * A paid-before entry written before keys had families (`<scope>:<destination lower-cased>`) as
 * its key now, or undefined when lower-casing lost what tells destinations apart: a Solana
 * address (base58 is case-sensitive: the entry may name an account never paid), or a beneficiary
 * id that is not exactly one of the registered ids `registered` finds for it.
 */
export function legacyPayee(
  member: string,
  registered: (lowerCased: string) => readonly string[],
): PaidDestination | undefined {
  const at = member.indexOf(':');
  if (at < 0) return undefined;
  const scope = member.slice(0, at);
  const rest = member.slice(at + 1);
  if (scope === PAID_BENEFICIARIES) {
    const ids = registered(rest);
    return ids.length === 1 && ids[0] ? { scope, key: beneficiaryKey(ids[0]) } : undefined;
  }
  if (!isChain(scope) || CHAINS[scope].kind !== 'evm') return undefined;
  const key = keyOrUndefined(scope, rest);
  return key ? { scope, key } : undefined;
}
