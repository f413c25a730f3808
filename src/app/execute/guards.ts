/**
 * The only checks between the start and the call. Each is about the start itself, not about
 * whether it may start (that is the start script's): a crash here leaves an `unknown` that was
 * never sent, so nothing else may widen this window.
 */
import { matchesSeal } from '../../domain/approval.js';
import type { SealedRequest } from '../../domain/request.js';
import type { ExecuteResult } from './deps.js';
import type { Finish } from './finish.js';
import type { Run } from './run.js';

/** What this try answers when a guard stopped it; undefined: make the call. */
export async function guard(run: Run, finish: Finish): Promise<ExecuteResult | undefined> {
  const { deps, executionId, started } = run;
  // The start must survive a failover before anything is sent (WAIT, store/durable.ts).
  if (deps.durable && !(await deps.durable())) {
    deps.log.warn({ executionId }, 'execute: no Redis replica acknowledged the start; not sent');
    return run.shape.notDurable(run, finish);
  }
  // DESIGN invariant 2: what runs is byte-for-byte what was approved.
  if (!matchesSeal(started.sealed.call, started.sealHash)) {
    await finish.final('failed', { message: 'integrity check failed: the stored call does not match its hash' });
    return 'failed';
  }
  if (refusesEntireBalance(started.sealed)) {
    await finish.final(
      'failed',
      {
        message:
          'it asked for the entire balance without an exact amount, which could move more than the approvers saw; nothing was sent. Request it again with an exact amount',
      },
      'refused: amount not fixed',
    );
    return 'failed';
  }
  return undefined;
}

/**
 * A record sealed before Rampart stopped sending -1 would move whatever the wallet
 * holds now, possibly more than the approvers saw (spec: -1 transfers the entire available
 * balance). Refused; nothing is sent.
 */
const refusesEntireBalance = (sealed: SealedRequest): boolean =>
  (sealed.call.kind === 'transfer' || sealed.call.kind === 'offramp') && sealed.call.body.amount === -1;
