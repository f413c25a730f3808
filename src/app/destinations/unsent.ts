/**
 * How many payments not yet sent each address-book entry stops when removed: the queued
 * executions of open approvals sealed with it (store/lua.ts CREATE writes the entry id beside
 * the sealed call). What the removal confirmation counts; the start script does the stopping.
 */
import type { AppDeps } from '../deps.js';

const PAGE = 500;

/** Entry id → queued executions sealed with it, over every open approval (pending ones included). */
export async function unsentByEntry(deps: Pick<AppDeps, 'store'>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of await deps.store.openIds()) {
    const record = await deps.store.get(id);
    if (!record) continue;
    const pages =
      record.executionCount <= record.executions.length
        ? [record.executions]
        : await Promise.all(
            Array.from({ length: Math.ceil(record.executionCount / PAGE) }, (_, i) =>
              deps.store.executions.page(id, i * PAGE, PAGE, record.executionCount),
            ),
          );
    for (const e of pages.flat())
      if (e.state === 'queued' && e.entryId) counts.set(e.entryId, (counts.get(e.entryId) ?? 0) + 1);
  }
  return counts;
}
