/**
 * Destinations Rampart has paid: one set per scope (a chain id, or beneficiaries), whose members
 * are destination keys (domain/destination-key.ts), added after a payment succeeds and read at
 * submission (the card's "never paid", STEP_UP_NEW_DESTINATION, an API key's new-destination
 * rule). Never read on the approve path.
 *
 * Before keys had families, one set `<prefix>:payees` held `<chain>:<address lower-cased>`; the
 * start-up sweep moves it over (store/migration-sweep.ts). Until every process runs this version,
 * an older one may still add there, so an EVM lookup also reads that set: lower-casing is exactly
 * an EVM address's key. A Solana entry there is never read: lower-cased, it names other accounts.
 */
import { CHAINS, type ChainId } from '../domain/assets.js';
import { keyAddress, keyIn } from '../domain/destination-key.js';
import type { RedisClient } from './redis.js';
import type { StoreKeys } from './store-keys.js';

/** The set of destination keys paid in `scope`. */
export const paidKey = (keys: StoreKeys, scope: string): string => `${keys.prefix}:paid:${scope}`;

/** The set written before destination keys: members `<chain>:<address lower-cased>`. */
export const legacyPayeesKey = (keys: StoreKeys): string => `${keys.prefix}:payees`;

const isEvmChain = (scope: string): boolean => Object.hasOwn(CHAINS, scope) && CHAINS[scope as ChainId].kind === 'evm';

export class PaidBefore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /** Was `destination` (an address on chain `scope`, or a beneficiary id) paid before? */
  async known(scope: string, destination: string): Promise<boolean> {
    const key = keyIn(scope, destination);
    if (!isEvmChain(scope)) return (await this.redis.sismember(paidKey(this.keys, scope), key)) === 1;
    const [now, before] = await Promise.all([
      this.redis.sismember(paidKey(this.keys, scope), key),
      this.redis.sismember(legacyPayeesKey(this.keys), `${scope}:${keyAddress(key)}`),
    ]);
    return now === 1 || before === 1;
  }

  /** Every key paid in `scope` (the keyed set only: the start-up sweep moved the old one over). */
  members(scope: string): Promise<string[]> {
    return this.redis.smembers(paidKey(this.keys, scope));
  }

  async add(scope: string, destination: string): Promise<void> {
    await this.redis.sadd(paidKey(this.keys, scope), keyIn(scope, destination));
  }
}
