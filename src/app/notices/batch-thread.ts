/**
 * A batch's thread: the rows file once the card is up, a reply naming rows, reason
 * and advice each time it pauses, and at the end the summary with the receipt. Each is marked before it is
 * sent (markPosted), so a repeated notify job never posts it twice; a crash between the mark and
 * the post loses that one message rather than doubling it (the card still shows the state).
 */

import type { RequestRecord } from '../../domain/request.js';
import type { Logger } from '../../log.js';
import type { RequestStore } from '../../store/requests.js';
import { unsentRows } from '../batch-unsent.js';
import type { CardRef, Notifier } from '../notifier.js';
import { batchRowOutcomes } from '../request-reads.js';

export interface BatchThreadDeps {
  notifier: Notifier;
  store: RequestStore;
  log: Logger;
}

async function once(deps: BatchThreadDeps, id: string, what: string, send: () => Promise<void>): Promise<void> {
  if (!(await deps.store.markPosted(id, what, String(Date.now())))) return;
  try {
    await send();
  } catch (err) {
    deps.log.error({ err, requestId: id, what }, 'a batch thread message could not be posted');
  }
}

/** How many times the batch was resumed: each pause after a resume is its own reply. */
const resumes = async (deps: BatchThreadDeps, id: string): Promise<number> =>
  (await deps.store.history(id)).filter((h) => h.event === 'resumed').length;

export async function batchThread(deps: BatchThreadDeps, record: RequestRecord, card: CardRef): Promise<void> {
  const id = record.sealed.id;
  await once(deps, id, 'batch-rows', async () =>
    deps.notifier.batchRows(record, card, await deps.store.batches.rows(id)),
  );
  const s = record.approvalState;
  // Every pause is news: one reply per pause (a resume starts a new one), whatever its reason.
  if (s === 'paused')
    await once(deps, id, `batch-paused-${await resumes(deps, id)}-${record.counts.unknown}`, async () => {
      const rows = await batchRowOutcomes(deps.store, record);
      const unknown = rows.filter((r) => r.state === 'unknown').map((r) => r.row);
      if (unknown.length > 0)
        deps.log.error({ requestId: id, rows: unknown }, 'batch paused: a row’s outcome is unknown');
      const unsent = await unsentRows(deps.store, record);
      await deps.notifier.batchPaused(record, card, {
        rows,
        unsent: unsent ? { rows: unsent.rows, need: unsent.need } : { rows: 0, need: { units: 0n, decimals: 0 } },
      });
    });
  if (s === 'done')
    await once(deps, id, 'batch-finished', async () =>
      deps.notifier.batchFinished(record, card, await batchRowOutcomes(deps.store, record)),
    );
}
