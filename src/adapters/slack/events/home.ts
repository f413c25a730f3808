/**
 * app_home_opened: publish the person's App Home — with the dashboard for VIEWERS,
 * without any treasury figure for anyone else.
 */
import type { WebClient } from '@slack/web-api';
import type { RequestRecord } from '../../../domain/request.js';
import { homeView, needsConfirmOf, needsVoteOf, SERIES_RUNS_ON_HOME } from '../blocks/home.js';
import type { Deps } from '../deps.js';
import type { Routes } from '../routes.js';
import { canView } from '../viewers.js';

/** A card's link never changes: asked of Slack once per process. */
const permalinks = new Map<string, string>();

/** Each card's link; a card Slack cannot link is listed without one. */
async function cardLinks(client: WebClient, list: RequestRecord[]): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  await Promise.all(
    list.map(async (r) => {
      if (!r.card) return;
      const key = `${r.card.channel}/${r.card.ts}`;
      const known = permalinks.get(key);
      if (known) return void links.set(r.sealed.id, known);
      const res = await client.chat
        .getPermalink({ channel: r.card.channel, message_ts: r.card.ts })
        .catch(() => undefined);
      if (res?.permalink) {
        permalinks.set(key, res.permalink);
        links.set(r.sealed.id, res.permalink);
      }
    }),
  );
  return links;
}

/**
 * The wallet whose charts each person last asked to see on App Home (one at a time keeps App Home
 * a few phone screens tall); per process, and a refresh keeps it. Bounded: the oldest choice goes.
 */
const expandedBy = new Map<string, string>();

/** Remembers the wallet whose charts `user` asked to see. */
export function expandWallet(user: string, alias: string): void {
  expandedBy.delete(user);
  expandedBy.set(user, alias);
  if (expandedBy.size > 1000) expandedBy.delete(expandedBy.keys().next().value ?? '');
}

/** Builds and publishes one person's App Home. */
export async function publishHome(deps: Deps, client: WebClient, user: string, channel?: string): Promise<void> {
  const [viewer, isApprover] = await Promise.all([
    canView(deps, client, user),
    deps.approvers.isApprover(user).catch(() => false),
  ]);
  // Read through the app façade; this listener only draws.
  const [{ open, recent, freeze, proposals }, dashboard, seriesRuns] = await Promise.all([
    deps.app.reads.home(viewer),
    viewer ? deps.app.reports.dashboard() : undefined,
    // Treasury figures: only a VIEWER sees what the runs pay.
    viewer ? deps.app.series.comingUp(SERIES_RUNS_ON_HOME) : [],
  ]);
  const pending = dashboard ? dashboard.waiting : open.filter((r) => r.state === 'pending');
  const comingUp = open
    .filter((r) => r.state === 'approved' && r.runAt !== undefined)
    .sort((a, b) => (a.runAt ?? 0) - (b.runAt ?? 0));
  const mine = isApprover ? pending.filter((r) => needsVoteOf(user, r)).slice(0, 15) : [];
  const confirm = isApprover ? proposals.filter((r) => needsConfirmOf(user, r)).slice(0, 15) : [];
  const approver = isApprover ? { user, links: await cardLinks(client, [...mine, ...confirm]) } : undefined;
  const links = dashboard ? await cardLinks(client, dashboard.outcomes) : new Map<string, string>();
  await client.views.publish({
    user_id: user,
    view: homeView({
      pending,
      recent,
      freeze,
      comingUp,
      seriesRuns,
      ...(approver ? { approver, confirm } : {}),
      ...(channel ? { channel } : {}),
      ...(dashboard ? { dashboard: { data: dashboard, links, now: deps.now(), expanded: expandedBy.get(user) } } : {}),
      ...(viewer ? {} : { figuresHidden: true }),
    }),
  });
}

export function registerHome(app: Routes, deps: Deps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    try {
      await publishHome(deps, client, event.user, event.channel);
      await deps.homeRefresh?.opened(event.user);
    } catch (err) {
      deps.log.error({ err }, 'could not publish App Home');
    }
  });
}
