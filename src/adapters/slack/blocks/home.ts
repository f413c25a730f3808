/** App Home: where to start, what needs this person's vote, what waits, what ran. Pure builder. */
import type { KnownBlock, View } from '@slack/types';
import type { Dashboard } from '../../../app/dashboard.js';
import type { ComingRun } from '../../../app/series/reads.js';
import { batchStatusWords, executionName } from '../../../domain/batch-status.js';
import type { FreezeState } from '../../../domain/freeze-state.js';
import type { RequestRecord } from '../../../domain/request.js';
import { whoCanCancelWaiting } from '../../../presenters/waiting-cancel.js';
import { skipRunButton } from './card-series.js';
import { summaryLine } from './card-summary.js';
import { CANCEL_WAITING_ACTION, waitingBlocks } from './card-time.js';
import { type Blocks, context, esc, header, link, plain, section, slackDate } from './common.js';
import { freezeBannerText } from './freeze.js';
import { activityBlocks, age, balanceBlocks, chartBlocks } from './home-dashboard.js';

/** The buttons at the top open what /transfer, /offramp and /balance open. */
export const HOME_ACTIONS = { transfer: 'home_transfer', offramp: 'home_offramp', balance: 'home_balance' } as const;

export interface HomeInput {
  pending: RequestRecord[];
  recent: RequestRecord[];
  freeze?: FreezeState | undefined;
  /** Present for an approver: who is looking, and each open card's link by request id. */
  approver?: { user: string; links: ReadonlyMap<string, string> };
  /** The App Home's DM channel, kept so a form opened here answers there. */
  channel?: string;
  /**
   * The dashboard (for VIEWERS), with each outcome's thread link, the time it was built
   * and the wallet whose charts this person asked to see (else the first with charts).
   */
  dashboard?: { data: Dashboard; links: ReadonlyMap<string, string>; now: number; expanded?: string | undefined };
  /** Someone outside VIEWERS: no treasury figures (only what needs their own vote). */
  figuresHidden?: boolean;
  /** Outcome-unknown requests whose not-paid proposal this approver could confirm. */
  confirm?: RequestRecord[];
  /** Approved payments waiting for their time (a cancel window or a set time), soonest first. */
  comingUp?: RequestRecord[];
  /** The next runs of live series, soonest first (app.series.comingUp), each with its Skip. */
  seriesRuns?: readonly ComingRun[];
}

/** App Home lists this many next runs of live series (a few: /schedules has them all). */
export const SERIES_RUNS_ON_HOME = 5;

export const FIGURES_HIDDEN =
  'Treasury figures (balances, limits, requests) are shown only to the people in VIEWERS; ask whoever runs Rampart to add you or your user group.';

// Each row says what moves from where to where (the sealed amount included).
const line = (r: RequestRecord): string =>
  `*${r.sealed.id}* · ${summaryLine(r.sealed)} · ${esc(batchStatusWords(r) ?? r.state)} · by <@${r.sealed.requester}> ${slackDate(r.sealed.createdAt)}`;

const voteLine = (r: RequestRecord, url: string | undefined): string =>
  `${line(r)}${url ? ` · ${link(url, 'Open card')}` : ''}`;

/** An outcome-unknown request with a not-paid proposal this approver could confirm: not theirs, not their proposal. */
export const needsConfirmOf = (user: string, r: RequestRecord): boolean =>
  r.sealed.requester !== user &&
  r.executions.some((e) => e.state === 'unknown' && e.proposal && e.proposal.by !== user);

const confirmLine = (r: RequestRecord, url: string | undefined): string => {
  const e = r.executions.find((x) => x.state === 'unknown' && x.proposal);
  return `*${e ? executionName(r, e.id) : r.sealed.id}* · ${summaryLine(r.sealed)} · outcome unknown · <@${e?.proposal?.by ?? ''}> proposed *not paid*: confirm it or record paid${url ? ` · ${link(url, 'Open card')}` : ''}`;
};

/** A pending request this approver can still vote on: not theirs, not yet voted. */
export const needsVoteOf = (user: string, r: RequestRecord): boolean =>
  r.state === 'pending' && r.sealed.requester !== user && !r.votes.some((v) => v.user === user);

/** A waiting payment's row on App Home, with the card's own Cancel (and its confirmation). */
const comingUpRow = (r: RequestRecord): KnownBlock => {
  const cancel = waitingBlocks(r)
    .flatMap((b) => (b.type === 'actions' ? b.elements : []))
    .find((e) => 'action_id' in e && e.action_id === CANCEL_WAITING_ACTION);
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: `${line(r)} · runs ${slackDate(r.runAt ?? 0)}` },
    ...(cancel ? { accessory: cancel } : {}),
  } as KnownBlock;
};

/** A live series' next run on App Home, with Skip for exactly that run (its time: UTC in the confirmation). */
const seriesRunRow = (r: ComingRun): KnownBlock =>
  ({
    type: 'section',
    text: { type: 'mrkdwn', text: `*${r.seriesId}* run ${r.k} · ${esc(r.pays)} · runs ${slackDate(r.at)}` },
    accessory: skipRunButton(r.seriesId, { k: r.k, at: r.at }, 'UTC', 'Skip', true),
  }) as KnownBlock;

const button = (text: string, action_id: string, primary = false) => ({
  type: 'button' as const,
  text: plain(text),
  action_id,
  ...(primary ? { style: 'primary' as const } : {}),
});

const actions: KnownBlock = {
  type: 'actions',
  block_id: 'home_actions',
  elements: [
    button('New transfer', HOME_ACTIONS.transfer, true),
    button('New offramp', HOME_ACTIONS.offramp),
    button('Balances', HOME_ACTIONS.balance),
  ],
};

const rows = (list: RequestRecord[], show: (r: RequestRecord) => string, empty: string): KnownBlock =>
  section(list.length ? list.slice(0, 15).map(show).join('\n') : empty);

export function homeView(input: HomeInput): View {
  const { pending, recent, freeze, approver, dashboard } = input;
  // With the dashboard, waiting rows say how long they have waited (oldest first).
  const aged = (r: RequestRecord) =>
    dashboard ? `${line(r)} · waiting ${age(dashboard.now - r.sealed.createdAt)}` : line(r);
  const mine = approver ? pending.filter((r) => needsVoteOf(approver.user, r)) : [];
  // No row twice: a request is listed once, in the first section it belongs to.
  const shown = new Set(mine.map((r) => r.sealed.id));
  // Approved and waiting for their time: "Coming up", each with its Cancel.
  const comingUp = (input.comingUp ?? []).filter((r) => !shown.has(r.sealed.id));
  for (const r of comingUp) shown.add(r.sealed.id);
  const waiting = pending.filter((r) => !shown.has(r.sealed.id));
  for (const r of waiting) shown.add(r.sealed.id);
  const recentOnly = recent.filter((r) => !shown.has(r.sealed.id));
  const blocks: Blocks = [
    header('Rampart'),
    ...(freeze ? [section(freezeBannerText(freeze))] : []),
    actions,
    context(
      'Balances `/balance` · rates `/rate` · bank lookup `/lookup` · payments `/transfer`, `/offramp` · series `/schedules` · setup `/identity`, `/beneficiary` · stop everything `/freeze`. Add `help` to any command for its usage.',
    ),
    { type: 'divider' },
  ];
  const confirm = approver ? (input.confirm ?? []).filter((r) => needsConfirmOf(approver.user, r)) : [];
  if (approver) {
    const votes = mine.map(
      (r) =>
        `${voteLine(r, approver.links.get(r.sealed.id))}${dashboard ? ` · waiting ${age(dashboard.now - r.sealed.createdAt)}` : ''}`,
    );
    const confirms = confirm.map((r) => confirmLine(r, approver.links.get(r.sealed.id)));
    const all = [...votes.slice(0, 15), ...confirms.slice(0, 15)];
    blocks.push(
      section(`*Needs your vote* (${mine.length + confirm.length})`),
      section(all.length ? all.join('\n') : '_Nothing needs your vote._'),
      { type: 'divider' },
    );
  }
  if (input.figuresHidden) {
    blocks.push(section(FIGURES_HIDDEN));
    return { type: 'home', blocks, ...(input.channel ? { private_metadata: input.channel } : {}) };
  }
  // On a phone, what needs a decision and the figures come first; the charts (one wallet's) last.
  if (dashboard) blocks.push(...balanceBlocks(dashboard.data), { type: 'divider' });
  const seriesRuns = (input.seriesRuns ?? []).slice(0, SERIES_RUNS_ON_HOME);
  if (comingUp.length > 0)
    blocks.push(
      section(`*Coming up* (${comingUp.length}): approved, waiting for their time; ${whoCanCancelWaiting()}`),
      ...comingUp.slice(0, 15).map(comingUpRow),
      ...(seriesRuns.length > 0 ? [] : [{ type: 'divider' } as KnownBlock]),
    );
  if (seriesRuns.length > 0)
    blocks.push(
      section(
        `*Coming up in series*: the next runs of live series; any approver can skip one (\`/schedules\` lists every series)`,
      ),
      ...seriesRuns.map(seriesRunRow),
      { type: 'divider' },
    );
  blocks.push(
    section(`*${approver ? 'Also waiting' : 'Waiting for approval'}* (${waiting.length})`),
    rows(waiting, aged, approver ? '_Nothing else is waiting._' : '_Nothing is waiting._'),
    { type: 'divider' },
    ...(dashboard
      ? [
          ...activityBlocks(dashboard.data, dashboard.links),
          { type: 'divider' } as KnownBlock,
          ...chartBlocks(dashboard.data, dashboard.expanded),
        ]
      : [section('*Recent requests*'), rows(recentOnly, line, '_No other requests yet._')]),
  );
  return { type: 'home', blocks, ...(input.channel ? { private_metadata: input.channel } : {}) };
}
