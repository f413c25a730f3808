/** A pending approval's deadline: pending → expired (its executions cancelled with it), then its notice. */
import type { RequestStore } from '../../store/requests.js';
import type { Clock, JobQueue } from '../ports.js';

export interface ExpireDeps {
  store: RequestStore;
  jobs: Pick<JobQueue, 'notify'>;
  now: Clock;
}

/** True when this call expired it (false: already decided, or gone). */
export async function expireApproval(deps: ExpireDeps, requestId: string): Promise<boolean> {
  const r = await deps.store.decide(requestId, 'expired', { event: 'expired' }, { decidedAt: String(deps.now()) });
  if (r.ok) await deps.jobs.notify({ requestId, kind: 'outcome' });
  return r.ok;
}
