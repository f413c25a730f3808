/**
 * How many payments not yet sent each address-book entry stops when removed: the queued
 * executions of open approvals sealed with it (store/lua/create.lua writes the entry id beside
 * the sealed call). What the removal confirmation and `/addresses` count; the start script does
 * the stopping. The store reads two fields per execution in pipelined pages
 * (store/requests.ts unsentByEntry), never a sealed request.
 */
import type { AppDeps } from '../deps.js';

/** Entry id → queued executions sealed with it, over every open approval (pending ones included). */
export function unsentByEntry(deps: Pick<AppDeps, 'store'>): Promise<Map<string, number>> {
  return deps.store.unsentByEntry();
}
