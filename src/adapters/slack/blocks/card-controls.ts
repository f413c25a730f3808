/**
 * Issue 13's lines on the approval card: the freeze banner, velocity headroom, why an approval
 * was held, and escalation. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { FreezeState } from '../../../domain/freeze-state.js';
import type { RequestRecord } from '../../../domain/request.js';
import { esc, section, slackDate } from './common.js';
import { freezeBannerText } from './freeze.js';

export interface CardControls {
  /** The freeze in force, shown on every card that is not final. */
  freeze?: FreezeState | undefined;
  /** APPROVERS: an outcome-unknown card names who could confirm not paid when too few can. */
  approvers?: readonly string[] | undefined;
}

const OPEN = new Set(['pending', 'approved', 'executing']);

export function cardControlBlocks(record: RecordLike, extras: CardControls): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (extras.freeze && OPEN.has(record.state)) blocks.push(section(freezeBannerText(extras.freeze)));
  if (record.state !== 'pending') return blocks;
  const lines: string[] = [];
  if (record.frozen.velocityNote) lines.push(`*Velocity limit at submission:* ${esc(record.frozen.velocityNote)}`);
  if (record.held) lines.push(`:warning: *Approval held:* ${esc(record.held)}`);
  if (record.escalatedAt) lines.push(`:mega: *Escalated* at ${slackDate(record.escalatedAt)}: still pending.`);
  if (lines.length > 0) blocks.push(section(lines.join('\n')));
  return blocks;
}

type RecordLike = Pick<RequestRecord, 'state' | 'frozen' | 'held' | 'escalatedAt'>;
