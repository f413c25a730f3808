/**
 * A fresh sandbox on port 0 and a real ServiceClient pointed at it, per test.
 */
import { afterEach, beforeEach } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ServiceClient } from '../../src/service/client.js';
import type { CreateIdentityRequest } from '../../src/service/schemas.js';

export const API_KEY = 'client-test-key';
export const BEARER = 'client-test-bearer';
export const OPS = 'wal_ops_7f3a';
export const TREASURY = 'wal_treasury_91c2';
export const PAYROLL = 'wal_payroll_44d0';
export const LEGACY = 'wal_legacy_0b19';
export const EVM_RECEIVER = '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68';
export const SOL_RECEIVER = '6hZ4tRpFc5fpPE7fsTyFuYCyggoMuL648pqMdynMcuiP';
export const IDENTITY: CreateIdentityRequest = {
  type: 'BVN',
  name: 'Adaeze Okafor',
  details: { bvn: '22334455667', dob: '29-02-2000' },
};

/** What a refusal by the service looks like on the client side. */
export const refused = (status: number, serviceMessage: string) => ({
  name: 'ServiceError',
  code: 'SERVICE_REJECTED',
  status,
  serviceMessage,
  mayHaveReached: true,
});

export interface SandboxClient {
  readonly sandbox: Sandbox;
  readonly client: ServiceClient;
}

/** Registers beforeEach/afterEach hooks; read `sandbox` and `client` inside tests. */
export function useSandboxClient(): SandboxClient {
  let sandbox: Sandbox | undefined;
  let client: ServiceClient | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox({ apiKey: API_KEY, bearerToken: BEARER });
    client = new ServiceClient({ baseUrl: sandbox.url, apiKey: API_KEY, bearerToken: BEARER, retryBaseDelayMs: 1 });
  });
  afterEach(async () => {
    await client?.close();
    await sandbox?.close();
  });
  return {
    get sandbox() {
      if (!sandbox) throw new Error('useSandboxClient: the sandbox is only there inside a test');
      return sandbox;
    },
    get client() {
      if (!client) throw new Error('useSandboxClient: the client is only there inside a test');
      return client;
    },
  };
}
