/**
 * /freeze stays instant without a reason; a later `/freeze <reason>` by an
 * approver adds the reason to that freeze (it never replaces a reason someone gave), and every
 * open card's banner is redrawn with it.
 */
import type { FreezeState } from '../store/controls.js';
import { authorise } from './decide.js';
import type { SealDeps } from './freeze.js';

/** What a freeze made without a reason records (app/freeze.ts). */
export const NO_REASON = 'no reason given';

export type FreezeReasonOutcome =
  | { kind: 'added'; freeze: FreezeState }
  /** A reason was given already (or the freeze ended): nothing changed. */
  | { kind: 'kept'; freeze: FreezeState | undefined }
  | Exclude<Awaited<ReturnType<typeof authorise>>, undefined>;

export async function addFreezeReason(deps: SealDeps, user: string, reason: string): Promise<FreezeReasonOutcome> {
  const refused = await authorise(deps, user);
  if (refused) return refused;
  const text = reason.trim().slice(0, 300);
  const r = await deps.controls.addFreezeReason(text, NO_REASON);
  if (!r.added) return { kind: 'kept', freeze: r.state };
  for (const id of await deps.store.openIds()) {
    await deps.store.appendHistory(id, { at: deps.now(), event: 'freeze reason', by: user, detail: text });
    await deps.queues.notify({ requestId: id, kind: 'card' });
  }
  return { kind: 'added', freeze: r.state ?? { by: user, at: deps.now(), reason: text } };
}
