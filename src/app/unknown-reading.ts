/**
 * Once an execution is recorded as outcome unknown, the wallet's balances are read once and kept
 * with it: the Record outcome form compares them with the reading from before the start. Taken
 * by the notification job that announces the unknown — after the move, never between the
 * start's compare-and-set and the call. Best effort: a failed read leaves no reading.
 */
import type { RequestRecord } from '../domain/request.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { RequestStore } from '../store/requests.js';

export interface ReadingDeps {
  store: Pick<RequestStore, 'executions'>;
  service: Pick<ServiceClient, 'getBalances'>;
  log: Logger;
  now: () => number;
}

export async function takeUnknownReadings(deps: ReadingDeps, record: RequestRecord): Promise<void> {
  if (record.counts.unknown === 0) return;
  for (const e of record.executions) {
    if (e.state !== 'unknown') continue;
    const facts = await deps.store.executions.facts(e.id);
    if (facts.reading) continue;
    const call = facts.call ? (JSON.parse(facts.call) as RequestRecord['sealed']['call']) : record.sealed.call;
    if (call.kind !== 'transfer' && call.kind !== 'offramp') continue;
    const at = deps.now();
    try {
      const balances = await deps.service.getBalances(call.body.wallet_id);
      await deps.store.executions.noteReading(e.id, {
        at,
        available: Object.fromEntries(balances.map((b) => [b.id, b.available])),
      });
    } catch (err) {
      deps.log.warn({ err, executionId: e.id }, 'could not read balances after an unknown outcome');
    }
  }
}
