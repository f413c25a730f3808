/**
 * Reminders and escalation: delayed jobs with deterministic ids, so each runs once
 * across many workers and survives restarts; each stops by itself once the request is decided.
 * Reminders go only to approvers whose vote could still change the outcome.
 */
import type { Logger } from '../../log.js';
import type { RequestStore } from '../../store/requests.js';
import type { Notifier } from '../notifier.js';
import type { ApprovalJobs, ReminderJob } from '../ports.js';

export interface RemindDeps {
  store: RequestStore;
  queues: Pick<ApprovalJobs, 'notify' | 'scheduleReminder'>;
  notifier: Notifier;
  log: Logger;
  now: () => number;
  /** APPROVERS and ESCALATE_TO, user groups resolved. */
  approvers: { members(): Promise<string[]> };
  escalateTo: { members(): Promise<string[]> };
  reminderAfterMs: number | undefined;
  reminderMax: number;
}

export async function remind(deps: RemindDeps, job: ReminderJob): Promise<'sent' | 'stopped'> {
  const record = await deps.store.get(job.requestId);
  if (record?.state !== 'pending' || record.sealed.expiresAt <= deps.now() || !record.card) return 'stopped';
  const { card } = record;
  const id = record.sealed.id;
  if (job.kind === 'escalate') {
    for (const user of await deps.escalateTo.members()) {
      if (!(await deps.store.markPosted(id, `escalate-${user}`, String(deps.now())))) continue;
      await deps.notifier.escalate(record, card, user);
    }
    if (!record.escalatedAt) {
      await deps.store.setNotes(id, { escalatedAt: String(deps.now()) });
      await deps.store.appendHistory(id, { at: deps.now(), event: 'escalated' });
      await deps.queues.notify({ requestId: id, kind: 'card' });
    }
    return 'sent';
  }
  const voted = new Set(record.votes.map((v) => v.user));
  const waiting = (await deps.approvers.members()).filter((u) => u !== record.sealed.requester && !voted.has(u));
  for (const user of waiting) {
    // Claimed first: a retried job never reminds the same person twice for the same round.
    if (!(await deps.store.markPosted(id, `remind-${job.n}-${user}`, String(deps.now())))) continue;
    await deps.notifier.remind(record, card, user, job.n);
  }
  deps.log.info({ requestId: id, n: job.n, reminded: waiting.length }, 'reminder sent');
  if (job.n < deps.reminderMax && deps.reminderAfterMs)
    await deps.queues.scheduleReminder({ requestId: id, kind: 'remind', n: job.n + 1 }, deps.reminderAfterMs);
  return 'sent';
}
