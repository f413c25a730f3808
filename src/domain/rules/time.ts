/**
 * The rules of time (DESIGN invariant 11): nothing starts before its runAt, and inside the wait
 * any one approver or the requester may cancel, until a start wins. Pure; the START
 * (store/lua/start.lua) and WINDOW_CANCEL (store/lua/window-cancel.lua) scripts apply the same
 * rules in the step that records them.
 */
import type { Actor } from '../actor.js';
import { ALLOW, type RuleOutcome } from './outcome.js';

/** Before its runAt (Redis time) no execution starts; refused with the time left. */
export const notYetRule = (runAt: number | undefined, now: number): RuleOutcome<'not_yet', { waitMs: number }> =>
  runAt !== undefined && now < runAt ? { ok: false, code: 'not_yet', waitMs: runAt - now } : ALLOW;

export type WaitingCancelCode = 'not_allowed_to_cancel' | 'already_started' | 'not_waiting';

/** What a cancel inside the wait is judged on. */
export interface WaitingFacts {
  requester: string;
  /** The actor is an approver (checked against the directory). */
  isApprover: boolean;
  approvalState: string;
  /** How many executions started or ended (a start won the race). */
  started: number;
  runAt: number | undefined;
}

/**
 * Any one approver or the requester may cancel an approval waiting for its runAt; once an
 * execution started it is too late ("already started"); without a wait there is nothing to cancel
 * here (a pending request has its own cancel and deny).
 */
export function waitingCancelRule(actor: Pick<Actor, 'user'>, f: WaitingFacts): RuleOutcome<WaitingCancelCode> {
  if (!f.isApprover && actor.user !== f.requester) return { ok: false, code: 'not_allowed_to_cancel' };
  if (f.started > 0 || ['running', 'paused', 'stopping'].includes(f.approvalState))
    return { ok: false, code: 'already_started' };
  if (f.approvalState !== 'approved' || f.runAt === undefined) return { ok: false, code: 'not_waiting' };
  return ALLOW;
}
