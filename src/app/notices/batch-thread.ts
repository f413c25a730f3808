/**
 * A batch's thread (issue 20): the rows file once the card is up, a loud message when it pauses
 * on an unknown row, and at the end the summary with the receipt. Each is marked before it is
 * sent (markPosted), so a repeated notify job never posts it twice; a crash between the mark and
 * the post loses that one message rather than doubling it (the card still shows the state).
 */

import type { RequestRecord } from '../../domain/request.js';
import type { Logger } from '../../log.js';
import type { RequestStore } from '../../store/requests.js';
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

export async function batchThread(deps: BatchThreadDeps, record: RequestRecord, card: CardRef): Promise<void> {
  const id = record.frozen.id;
  await once(deps, id, 'batch-rows', async () =>
    deps.notifier.batchRows(record, card, await deps.store.batches.rows(id)),
  );
  const s = record.approvalState;
  if (s === 'paused' && record.counts.unknown > 0)
    await once(deps, id, `batch-paused-${record.counts.unknown}`, async () => {
      const unknown = (await batchRowOutcomes(deps.store, record)).filter((r) => r.state === 'unknown');
      deps.log.error({ requestId: id, rows: unknown.map((r) => r.row) }, 'batch paused: a row’s outcome is unknown');
      await deps.notifier.batchPaused(record, card, unknown);
    });
  if (s === 'done')
    await once(deps, id, 'batch-finished', async () =>
      deps.notifier.batchFinished(record, card, await batchRowOutcomes(deps.store, record)),
    );
}
