/**
 * Issue 13's lines on the approval card: the freeze banner, velocity headroom, why an approval
 * was held, and escalation. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { CardCommitments } from '../../../domain/commitments.js';
import type { FreezeState } from '../../../domain/freeze-state.js';
import type { RequestRecord } from '../../../domain/request.js';
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
  const note = record.frozen.velocityNote;
  return record.state === 'pending' && note ? [section(esc(note))] : [];
}

/** "Committed: B-1003 still needs …": shown while the payment can still be denied. */
export function committedBlocks(record: RecordLike, commitments: CardCommitments | undefined): KnownBlock[] {
  const line = record.state === 'pending' ? committedLine(commitments) : undefined;
  return line ? [section(`:link: ${esc(line).replace(/^Committed:/, '*Committed:*')}`)] : [];
}

type RecordLike = Pick<RequestRecord, 'state' | 'frozen' | 'held' | 'escalatedAt'>;
