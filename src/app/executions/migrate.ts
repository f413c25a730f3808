/**
 * Records written before approvals had executions are migrated once at a worker's start, before
 * the reconciler reads them (each script also migrates what it touches, so this only completes
 * it); after a clean sweep of this record format, later starts skip it (store/migration-sweep.ts).
 */
import type { Logger } from '../../log.js';
import type { RequestStore } from '../../store/requests.js';

export async function migrateRecords(deps: { store: Pick<RequestStore, 'migrate'>; log: Logger }): Promise<void> {
  const { log } = deps;
  try {
    const { migrated: n, left, payees } = await deps.store.migrate();
    if (n > 0) log.info({ migrated: n }, 'records migrated to approvals with executions');
    if (payees.rekeyed + payees.dropped > 0)
      log.info(payees, 'paid-before entries moved to destination keys (Solana and unmatched ones dropped)');
    if (left > 0) log.warn({ left }, 'records left unmigrated; the next worker start sweeps again');
  } catch (err) {
    log.error({ err }, 'migration of old records failed; scripts migrate what they touch');
  }
}
