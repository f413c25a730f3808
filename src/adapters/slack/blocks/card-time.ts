/**
 * What a card says about time: before approval when it will run ("runs 1 h after approval", or
 * at a set time in its zone), and while it waits "Approved · runs at 14:30 UTC (in 58 min)" with
 * a Cancel whose confirmation names the money. Slack's own `{ago}` token keeps "in 58 min"
 * current without a re-render (https://api.slack.com/reference/surfaces/formatting#date-formatting). Pure.
 */
import type { KnownBlock } from '@slack/types';
import { coolingEntry } from '../../../domain/address-book.js';
import type { RequestRecord } from '../../../domain/request.js';
import { zonedTime } from '../../../domain/timing.js';
import { whoCanCancelWaiting } from '../../../presenters/waiting-cancel.js';
import { buttonLabel, plannedRun, summaryLine } from './card-summary.js';
import { esc, plain, section, slackDate } from './common.js';

export const CANCEL_WAITING_ACTION = 'request_cancel_waiting';

const relative = (ms: number) =>
  `<!date^${Math.floor(ms / 1000)}^{ago}|${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC>`;

/**
 * An approved single to an address-book entry approved before the entry's cooling-off ended
 * waits for it (the start script starts it no earlier): "Waiting: Acme payroll wallet usable
 * from …". The word is *waiting*, never *held*, which is the freeze's. Undefined otherwise.
 */
export function coolingWait(record: RequestRecord): string | undefined {
  const e = coolingEntry(record);
  if (!e) return undefined;
  return `:hourglass: Waiting: *${esc(e.name)}* usable from ${slackDate(e.usableAt)}`;
}

/** A pending card's line under its status. */
export function pendingTimeBlocks(record: RequestRecord): KnownBlock[] {
  const planned = record.state === 'pending' ? plannedRun(record.sealed) : undefined;
  return planned ? [section(`:stopwatch: Set to wait: ${planned}; ${whoCanCancelWaiting()} until then`)] : [];
}

/** Approved and waiting for its runAt: the status line and the Cancel button. */
export function waitingBlocks(record: RequestRecord): KnownBlock[] {
  const f = record.sealed;
  if (record.state !== 'approved' || record.runAt === undefined) return [];
  const at = zonedTime(record.runAt, f.timing?.zone ?? 'UTC');
  return [
    section(
      `:stopwatch: *Approved · runs at ${at} (${relative(record.runAt)})* — ${whoCanCancelWaiting(`<@${f.requester}>`)} until then`,
    ),
    {
      type: 'actions',
      block_id: `waiting-${f.id}`,
      elements: [
        {
          type: 'button',
          action_id: CANCEL_WAITING_ACTION,
          style: 'danger',
          text: plain('Cancel', 75),
          accessibility_label: buttonLabel('Cancel', f),
          value: f.id,
          confirm: {
            title: plain('Cancel this payment?', 100),
            text: plain(`Cancel ${summaryLine(f)} before it runs at ${at}? Nothing will be sent.`.slice(0, 300), 300),
            confirm: plain('Cancel it', 30),
            deny: plain('Back', 30),
          },
        },
      ],
    } as KnownBlock,
  ];
}
