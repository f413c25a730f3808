/**
 * Velocity limits in the use cases (issue 13): the read at submission (would this fit, and the
 * headroom the card shows) and what an Approve click hands to the VOTE script, which re-checks
 * atomically with the approval.
 */
import type { SealedRequest } from '../domain/request.js';
import {
  afterSentence,
  exceededSentence,
  firstExceeded,
  rulesFor,
  type VelocityRule,
  type VelocitySubject,
  velocitySubject,
} from '../domain/velocity.js';
import type { ControlStore } from '../store/controls.js';
import type { VoteControls } from '../store/requests.js';
import type { AppDeps } from './deps.js';

export interface VelocityDeps {
  controls: ControlStore;
  rules: readonly VelocityRule[];
  now: () => number;
}

export type VelocityCheck =
  | { ok: true /** "ops has … left of … in the last 24 h", one per rule; undefined without rules. */; note?: string }
  | { ok: false; message: string };

/** `request` needs only what velocitySubject reads: the call, wallet alias and available units. */
export async function checkVelocity(
  deps: VelocityDeps,
  request: Pick<SealedRequest, 'call' | 'display' | 'availableUnits'>,
): Promise<VelocityCheck> {
  const subject = velocitySubject(request);
  if (!subject) return { ok: true };
  const rules = rulesFor(deps.rules, subject.walletAlias, subject.code);
  if (rules.length === 0) return { ok: true };
  const usages = await deps.controls.usage(subject, rules, deps.now());
  const over = firstExceeded(usages, subject.units);
  if (over) return { ok: false, message: exceededSentence(subject, over) };
  return { ok: true, note: usages.map((u) => afterSentence(subject, u)).join(' ') };
}

export interface ApprovalControls {
  vote: VoteControls;
  subject?: VelocitySubject;
  rules: VelocityRule[];
}

type ControlDeps = Pick<AppDeps, 'store' | 'controls' | 'config'>;

/**
 * What the VOTE script checks besides the vote: always the freeze; with VELOCITY_LIMITS set, the
 * ledger of the request's wallet and asset code (one read of the request, only then).
 */
export async function approvalControls(deps: ControlDeps, requestId: string): Promise<ApprovalControls> {
  const all = deps.config.controls.velocity;
  if (all.length === 0) return { vote: deps.controls.voteControls(undefined, []), rules: [] };
  const record = await deps.store.get(requestId);
  const subject = record ? velocitySubject(record.frozen) : undefined;
  const rules = subject ? rulesFor(all, subject.walletAlias, subject.code) : [];
  return { vote: deps.controls.voteControls(subject, rules), rules, ...(subject ? { subject } : {}) };
}

/** The sentence for a held approval, kept on the record and in its history for the card. */
export async function recordHeld(
  deps: Pick<AppDeps, 'store' | 'log' | 'now'>,
  requestId: string,
  user: string,
  c: ApprovalControls,
  limitIndex: number,
  used: bigint,
): Promise<string> {
  const rule = c.rules[limitIndex];
  if (!c.subject || !rule) throw new Error(`over_limit without a rule for ${requestId}`);
  const message = exceededSentence(c.subject, { rule, used });
  await deps.store.setNotes(requestId, { held: message });
  await deps.store.appendHistory(requestId, { at: deps.now(), event: 'held', by: user, detail: message });
  deps.log.info({ requestId, by: user, rule: rule.text }, 'approval held by a velocity limit');
  return message;
}
