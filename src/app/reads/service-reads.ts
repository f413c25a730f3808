/**
 * Questions only the service answers (a wallet, its balances, the rate, an account lookup, an
 * identity) and the service user create: bound to a service opened on first use, so the commands
 * that ask them open nothing else and work with Redis down.
 */
import type { Config } from '../../config.js';
import type { ServiceClient } from '../../service/client.js';
import { lookupAccount, readRate, readWalletPart } from '../reads.js';

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
    /** POST /user (Bearer auth); its failure comes back as thrown, for the caller to classify. */
    createUser: async (body: Parameters<ServiceClient['createUser']>[0]) => (await open()).createUser(body),
  };
}

export type ServiceReads = ReturnType<typeof serviceReads>;
