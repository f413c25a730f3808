/**
 * Lines on the approval card: the freeze banner, velocity headroom, why an approval
 * was held, and escalation. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { CardCommitments } from '../../../domain/commitments.js';
import type { FreezeState } from '../../../domain/freeze-state.js';
import type { RequestRecord } from '../../../domain/request.js';
import { unreachableQuorum } from '../../../domain/step-up-reach.js';
import { plural } from '../../../domain/words.js';
import { committedLine } from '../../../presenters/commitments.js';
import { esc, section, slackDate } from './common.js';
import { freezeBannerText } from './freeze.js';

export interface CardControls {
  /** The freeze in force, shown on every card that is not final. */
  freeze?: FreezeState | undefined;
  /** APPROVERS: an outcome-unknown card names who could confirm not paid when too few can. */
  approvers?: readonly string[] | undefined;
  /** What else is promised from this payment's wallet and asset (app/commitments.ts). */
  commitments?: CardCommitments | undefined;
  /** Approvers whose passkey counts now; given, a step-up card says when its quorum is out of reach. */
  passkeyHolders?: readonly string[] | undefined;
  /** A live series' next run still to come, for its Skip next run button (app.series.show's first). */
  seriesNext?: { k: number; at: number } | undefined;
}

const OPEN = new Set(['pending', 'approved', 'executing']);

export function cardControlBlocks(record: RecordLike, extras: CardControls): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (extras.freeze && OPEN.has(record.state)) blocks.push(section(freezeBannerText(extras.freeze)));
  if (record.state !== 'pending') return blocks;
  const lines: string[] = [];
  if (record.held) lines.push(`:warning: *Approval held:* ${esc(record.held)}`);
  if (record.escalatedAt) lines.push(`:mega: *Escalated* at ${slackDate(record.escalatedAt)}: still pending.`);
  if (lines.length > 0) blocks.push(section(lines.join('\n')));
  return blocks;
}

/** The velocity headroom, read after the money; the sealed note already begins "Limit for ops:". */
export function velocityBlocks(record: RecordLike): KnownBlock[] {
  const note = record.sealed.velocityNote;
  return record.state === 'pending' && note ? [section(esc(note))] : [];
}

/** "Committed: B-1003 still needs …": shown while the payment can still be denied. */
export function committedBlocks(record: RecordLike, commitments: CardCommitments | undefined): KnownBlock[] {
  const line = record.state === 'pending' ? committedLine(commitments) : undefined;
  return line ? [section(`:link: ${esc(line).replace(/^Committed:/, '*Committed:*')}`)] : [];
}

/** A step-up request too few approvers can approve: say so, and name who could register a passkey. */
export function quorumReachBlocks(
  record: RecordLike & Pick<RequestRecord, 'votes'>,
  extras: CardControls,
): KnownBlock[] {
  const f = record.sealed;
  if (record.state !== 'pending' || !f.stepUp || !extras.passkeyHolders) return [];
  const reach = unreachableQuorum(
    f.requiredApprovals,
    record.votes.map((v) => v.user),
    f.requester,
    extras.passkeyHolders,
    extras.approvers ?? [],
  );
  if (!reach) return [];
  const who = (ids: readonly string[]) => ids.map((u) => `<@${u}>`).join(', ');
  const have = reach.holders.length === 0 ? 'no other approver has one' : `only ${who(reach.holders)} can`;
  const register =
    reach.couldRegister.length > 0
      ? ` ${who(reach.couldRegister)} could register one with /passkey (another approver approves it).`
      : ' An approver could register one with /passkey (another approver approves it).';
  return [
    section(
      `:warning: *This cannot reach its quorum yet:* it needs ${plural(reach.needed, 'more approval')} with a passkey that counts, and ${have}.${register}`,
    ),
  ];
}

type RecordLike = Pick<RequestRecord, 'state' | 'sealed' | 'held' | 'escalatedAt'>;
