/**
 * Balance history: one snapshot of every configured wallet per SNAPSHOT_EVERY period.
 * The period is claimed first (SET NX), so however many workers run the job, the service is read
 * once per wallet per period; a failed read is stored as a gap with a short reason, never as zero.
 */
import type { WalletAlias } from '../domain/wallets.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import { isServiceError } from '../service/errors.js';
import type { BalanceHistory, Snapshot } from '../store/balance-history.js';

export interface SnapshotDeps {
  service: Pick<ServiceClient, 'getBalances'>;
  history: Pick<BalanceHistory, 'claim' | 'record'>;
  wallets: readonly WalletAlias[];
  everyMs: number;
  now: () => number;
  log: Logger;
}

/** The start of the period the instant falls in. */
export const periodOf = (at: number, everyMs: number): number => Math.floor(at / everyMs) * everyMs;

/** Why a read failed, in a few words that carry no secret or personal data (not the service's text). */
function gapReason(err: unknown): string {
  if (!isServiceError(err)) return 'the balances could not be read';
  if (err.status !== undefined) return `the service answered HTTP ${err.status}`;
  return err.mayHaveReached ? 'the service did not answer in time' : 'the service could not be reached';
}

/** Takes the current period's snapshot if nobody has; 'taken' when another worker has it. */
export async function snapshotBalances(deps: SnapshotDeps): Promise<'taken' | { wallets: number; gaps: number }> {
  const at = periodOf(deps.now(), deps.everyMs);
  if (!(await deps.history.claim(at, deps.everyMs))) return 'taken';
  let gaps = 0;
  await Promise.all(
    deps.wallets.map(async (w) => {
      let snapshot: Snapshot;
      try {
        const balances = await deps.service.getBalances(w.id);
        snapshot = { at, gap: false, available: Object.fromEntries(balances.map((b) => [b.id, b.available])) };
      } catch (err) {
        gaps += 1;
        deps.log.warn({ err, wallet: w.alias }, 'balance snapshot failed; stored as a gap');
        snapshot = { at, gap: true, why: gapReason(err) };
      }
      await deps.history.record(w.id, snapshot);
    }),
  );
  return { wallets: deps.wallets.length, gaps };
}
