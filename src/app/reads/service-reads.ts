/**
 * Questions only the service answers (a wallet, its balances, the rate, an account lookup, an
 * identity) and the service user create: bound to a service opened on first use, so the commands
 * that ask them open nothing else and work with Redis down.
 */
import type { Config } from '../../config.js';
import { outcomeOfFailure } from '../../service/classify.js';
import type { ServiceClient } from '../../service/client.js';
import { isServiceError } from '../../service/errors.js';
import {
  type CreateUserRequest,
  type Currency,
  createUserRequest,
  currency,
  describeZodError,
} from '../../service/schemas.js';
import { lookupAccount, readRate, readWalletPart } from '../reads.js';

/** What the service answers, as the CLI prints it. */
export type { AccountLookup, BalanceEntry, Identity, Wallet } from '../../service/schemas.js';

/** spec 4.10: the currencies the service quotes (NGN only), any case; undefined for another. */
export function quotedCurrency(given: string): Currency | undefined {
  const parsed = currency.safeParse(given);
  return parsed.success ? parsed.data : undefined;
}

const userFields = createUserRequest.omit({ password: true });
export type NewUserFields = Omit<CreateUserRequest, 'password'>;

/** spec 4.1: a new service user's fields (all but the password), or the first problem's field and sentence. */
export function checkUserFields(
  given: unknown,
): { ok: true; user: NewUserFields } | { ok: false; field: string; message: string } {
  const checked = userFields.safeParse(given);
  return checked.success ? { ok: true, user: checked.data } : { ok: false, ...describeZodError(checked.error) };
}

/**
 * POST /user's outcome. The one classifier decides whether the user may exist:
 * unknown — it may; refused — the Bearer token was not taken (nothing created); any other failure
 * is thrown as it came.
 */
export type UserCreated =
  | { kind: 'created'; created: Awaited<ReturnType<ServiceClient['createUser']>> }
  | { kind: 'unknown'; err: unknown }
  | { kind: 'refused'; status: number };

export type ServiceForReads = Pick<
  ServiceClient,
  'getWallet' | 'getBalances' | 'getOnrampRate' | 'lookupAccount' | 'getIdentity' | 'createUser'
>;

export function serviceReads(config: Config, open: () => Promise<ServiceForReads>) {
  return {
    /** One wallet by configured alias or service id (unknown-wallet: neither). */
    wallet: async (target: string) => {
      const service = await open();
      return readWalletPart(config, target, (id) => service.getWallet(id));
    },
    balances: async (target: string) => {
      const service = await open();
      return readWalletPart(config, target, (id) => service.getBalances(id));
    },
    rate: async (currency: string) => readRate({ service: await open() }, currency),
    lookup: async (account: { bankCode: string; accountNumber: string }) =>
      lookupAccount({ service: await open() }, account),
    identity: async (id: string) => (await open()).getIdentity(id),
    /** POST /user (Bearer auth). */
    createUser: async (body: CreateUserRequest): Promise<UserCreated> => {
      const service = await open();
      try {
        return { kind: 'created', created: await service.createUser(body) };
      } catch (err) {
        if (outcomeOfFailure('createUser', err) === 'unknown') return { kind: 'unknown', err };
        if (isServiceError(err) && (err.status === 401 || err.status === 403))
          return { kind: 'refused', status: err.status };
        throw err;
      }
    },
  };
}

export type ServiceReads = ReturnType<typeof serviceReads>;
