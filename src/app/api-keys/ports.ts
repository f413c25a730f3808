/**
 * What the HTTP API's use cases need beyond the façade's ports: the Idempotency-Key records,
 * whether a key's owner is still active in Slack, the per-key rate limiter (API_RATE) and how
 * long a caller waits for the live checks. Built by the composition root (compose/api-ports.ts).
 */
import type { IdempotencyStore } from '../../store/idempotency.js';

export interface OwnerDirectory {
  /** False for a deactivated or unknown user; throws when Slack could not be asked. */
  isActive(user: string): Promise<boolean>;
}

export interface ApiPorts {
  idempotency: IdempotencyStore;
  owners: OwnerDirectory;
  /** 0 when this key may call now, else the ms to wait (API_RATE per key). */
  admit(keyId: string): Promise<number>;
  /** Bounds the live checks against the wallet service (no Slack 3 s here, but a caller waits). */
  checkBudgetMs: number;
}

/** The ports of a process that serves the HTTP API; any other process has none to give. */
export function apiPortsOf(deps: { api?: ApiPorts | undefined }): ApiPorts {
  if (!deps.api) throw new Error('this process does not serve the HTTP API');
  return deps.api;
}
