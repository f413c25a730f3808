/**
 * /schedules: every series, live first (each with Skip next run and End series), then those
 * waiting for approval, then the last few that ended or never started. Each says what one run
 * pays, its schedule in words, its next run and how many runs were made or skipped. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { SeriesView } from '../../../app/series/reads.js';
import { localTimeText } from '../../../domain/schedule-words.js';
import { endSeriesButton, skipRunButton } from './card-series.js';
import { type Blocks, context, esc, header, section } from './common.js';

/** Live series listed with their buttons (two blocks each, well inside Slack's 50 per message). */
export const LIVE_LISTED = 15;
/** Series waiting for approval, and those that ended, listed as lines. */
export const OTHERS_LISTED = 10;

const CLOSED: Record<string, string> = {
  ended: 'ended',
  denied: 'denied',
  cancelled: 'cancelled',
  expired: 'expired',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "2 of 12 runs made, 1 skipped". */
const progress = (v: SeriesView) =>
  `${v.created.length} of ${plural(v.runs, 'run')} made${v.skipped.length ? `, ${v.skipped.length} skipped` : ''}`;

const nextText = (v: SeriesView) => {
  const next = v.next[0];
  return next ? `next run ${next.k}: ${localTimeText(next.at, v.zone)} ${esc(v.zone)}` : 'no run left to come';
};

/** "*S-3* · 1,200.00 USDC to 0x12ab…9f3c each run · Monthly on the 1st at 09:00 Africa/Lagos". */
const head = (v: SeriesView) => `*${v.id}* · ${esc(v.pays)} each run · ${esc(v.cadence)}`;

function liveBlocks(v: SeriesView): KnownBlock[] {
  const paused = v.paused ? ' · :double_vertical_bar: paused: it needs a fresh approval' : '';
  const next = v.next[0];
  return [
    section(`${head(v)}\n${nextText(v)} · ${progress(v)}${paused} · by <@${v.requester}>`),
    {
      type: 'actions',
      block_id: `series_actions_${v.id}`,
      elements: [
        ...(next ? [skipRunButton(v.id, next, v.zone, 'Skip next run', true)] : []),
        endSeriesButton(v.id, true),
      ],
    } as KnownBlock,
  ];
}

const pendingLine = (v: SeriesView) =>
  `${head(v)} · ${plural(v.runs, 'run')} · waiting for approval · by <@${v.requester}>`;

const closedLine = (v: SeriesView) =>
  `${head(v)} · ${CLOSED[v.state] ?? esc(v.state)}${v.endedBy ? ` by <@${v.endedBy}>` : ''} · ${progress(v)}`;

export function schedulesBlocks(list: readonly SeriesView[]): Blocks {
  const live = list.filter((v) => v.state === 'live');
  const pending = list.filter((v) => v.state === 'pending');
  const closed = list.filter((v) => v.state !== 'live' && v.state !== 'pending');
  if (list.length === 0)
    return [
      section(
        'No series yet. To make one, choose *Repeat* on the `/transfer` or `/offramp` form: it is approved once, on its total, and each run sends the same amount.',
      ),
    ];
  const more = (shown: number, all: number) => (all > shown ? `\n_…and ${all - shown} more_` : '');
  const blocks: Blocks = [header('Series')];
  blocks.push(section(`*Live* (${live.length})${live.length ? '' : '\n_None._'}`));
  for (const v of live.slice(0, LIVE_LISTED)) blocks.push(...liveBlocks(v));
  if (live.length > LIVE_LISTED) blocks.push(context(`…and ${live.length - LIVE_LISTED} more live series.`));
  if (pending.length)
    blocks.push(
      section(
        `*Waiting for approval* (${pending.length})\n${pending.slice(0, OTHERS_LISTED).map(pendingLine).join('\n')}${more(OTHERS_LISTED, pending.length)}`,
      ),
    );
  if (closed.length)
    blocks.push(section(`*Recently ended*\n${closed.slice(0, OTHERS_LISTED).map(closedLine).join('\n')}`));
  blocks.push(
    context(
      'Any approver can skip a run or end a series; its requester can end it. A skipped run sends nothing; the series goes on.',
    ),
  );
  return blocks;
}
