/** A single request's execution: its own thread replies, its velocity headroom, its card's timing. */
import { velocitySubject } from '../../domain/velocity.js';
import { notifyKind } from './finish.js';
import { queueCardRefresh } from './run.js';
import type { RunShape } from './shape.js';

/** A single request's call slower than this shows "executing" on its card until it answers. */
export const EXECUTING_CARD_AFTER_MS = 500;

const NOT_DURABLE = 'no Redis replica acknowledged the start in time, so nothing was sent';

export const singleShape: RunShape = {
  // The final move gives the velocity headroom back on `failed` and re-stamps the reservation
  // with its start time on succeeded/unknown, in the same script.
  finishWith({ deps, started }) {
    const subject = velocitySubject(started.sealed);
    return subject && deps.controls
      ? { release: { ledger: deps.controls.ledgerKey(subject), amounts: deps.controls.amountsKey(subject) } }
      : {};
  },
  next: () => undefined,
  refreshCard: queueCardRefresh,
  // "Executing" only while a call is slow to answer: a quick call's outcome refreshes the card
  // moments later anyway, so an earlier refresh would be a flicker, one more chat.update against
  // Slack's per-channel limit, and a job sharing the time before the call's first byte.
  showExecuting(run) {
    const timer = setTimeout(() => singleShape.refreshCard(run), EXECUTING_CARD_AFTER_MS);
    return () => clearTimeout(timer);
  },
  afterFinal: ({ deps, executionId, approvalId, started }, to) =>
    deps.jobs.notify({ requestId: approvalId, kind: notifyKind(started.shape, executionId, to) }),
  async notDurable({ deps, executionId, approvalId, started }, finish) {
    const r = await finish.notSent({ message: NOT_DURABLE }, 'not sent: Redis replica did not acknowledge; will retry');
    // The thread says so: back to queued, nothing sent.
    if (r === 'retry')
      await deps.jobs.notify({ requestId: approvalId, kind: notifyKind(started.shape, executionId, 'not-sent') });
    return r;
  },
};
