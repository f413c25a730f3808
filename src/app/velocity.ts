/**
 * Velocity limits in the use cases: the read at submission (would this fit, and the
 * headroom the card shows) and what an Approve click hands to the VOTE script, which re-checks
 * atomically with the approval, reading the request's subject from the record itself.
 */
import type { SealedRequest } from '../domain/request.js';
import {
  afterSentence,
  exceededSentence,
  firstExceeded,
  rulesFor,
  type VelocityRule,
  velocitySubject,
} from '../domain/velocity.js';
import type { ControlStore } from '../store/controls.js';
import type { VoteControls, VoteResult } from '../store/requests.js';
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

type ControlDeps = Pick<AppDeps, 'controls' | 'config'>;

/**
 * What the VOTE script checks besides the vote: always the freeze; with VELOCITY_LIMITS set,
 * every rule, applied to the subject stored on the record at creation. Nothing is read first.
 */
export const approvalControls = (deps: ControlDeps): VoteControls =>
  deps.controls.voteControls(deps.config.controls.velocity);

/**
 * For a record stored before its subject was (the vote answered `needs_subject`): one read of
 * the request, then the same controls with its subject.
 */
export async function controlsWithSubject(
  deps: ControlDeps & Pick<AppDeps, 'store'>,
  requestId: string,
): Promise<VoteControls> {
  const record = await deps.store.get(requestId);
  const subject = record ? velocitySubject(record.sealed) : undefined;
  return deps.controls.voteControls(deps.config.controls.velocity, subject ?? null);
}

/** The sentence for a held approval, kept on the record and in its history for the card. */
export async function recordHeld(
  deps: Pick<AppDeps, 'store' | 'log' | 'now' | 'config'>,
  requestId: string,
  user: string,
  v: Pick<VoteResult, 'limitIndex' | 'used' | 'subject'>,
): Promise<string> {
  // The index is into every configured rule: the script picked among them as rulesFor does.
  const rule = deps.config.controls.velocity[v.limitIndex ?? -1];
  if (!v.subject || !rule) throw new Error(`over_limit without a rule for ${requestId}`);
  const message = exceededSentence(v.subject, { rule, used: v.used ?? 0n });
  await deps.store.setNotes(requestId, { held: message });
  await deps.store.appendHistory(requestId, { at: deps.now(), event: 'held', by: user, detail: message });
  deps.log.info({ requestId, by: user, rule: rule.text }, 'approval held by a velocity limit');
  return message;
}
