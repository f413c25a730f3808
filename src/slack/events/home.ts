/**
 * app_home_opened: publish the person's App Home — with the dashboard (issue 24) for VIEWERS,
 * without any treasury figure for anyone else.
 */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { buildDashboard, type Dashboard } from '../../app/dashboard.js';
import type { RequestRecord } from '../../domain/request.js';
import { homeView, needsVoteOf } from '../blocks/home.js';
import type { Deps } from '../deps.js';
import { canView } from '../viewers.js';

async function records(deps: Deps, ids: string[]): Promise<RequestRecord[]> {
  const all = await Promise.all(ids.map((id) => deps.store.get(id)));
  return all.filter((r): r is RequestRecord => r !== undefined).sort((a, b) => b.frozen.createdAt - a.frozen.createdAt);
}

/** A card's link never changes: asked of Slack once per process. */
const permalinks = new Map<string, string>();

/** Issue 23 item 11: each card's link; a card Slack cannot link is listed without one. */
async function cardLinks(client: WebClient, list: RequestRecord[]): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  await Promise.all(
    list.map(async (r) => {
      if (!r.card) return;
      const key = `${r.card.channel}/${r.card.ts}`;
      const known = permalinks.get(key);
      if (known) return void links.set(r.frozen.id, known);
      const res = await client.chat
        .getPermalink({ channel: r.card.channel, message_ts: r.card.ts })
        .catch(() => undefined);
      if (res?.permalink) {
        permalinks.set(key, res.permalink);
        links.set(r.frozen.id, res.permalink);
      }
    }),
  );
  return links;
}

export function dashboardOf(deps: Deps): Promise<Dashboard> | undefined {
  if (!deps.dashboard) return undefined;
  return buildDashboard({
    service: deps.service,
    store: deps.store,
    controls: deps.controls,
    ...deps.dashboard,
    wallets: deps.config.wallets,
    rules: deps.config.controls.velocity,
    zone: deps.config.reports.at?.zone ?? 'UTC',
    now: deps.now,
    log: deps.log,
  });
}

/** Builds and publishes one person's App Home. */
export async function publishHome(deps: Deps, client: WebClient, user: string, channel?: string): Promise<void> {
  const [viewer, isApprover] = await Promise.all([
    canView(deps, client, user),
    deps.approvers.isApprover(user).catch(() => false),
  ]);
  const [open, recent, freeze, dashboard] = await Promise.all([
    records(deps, await deps.store.openIds()),
    viewer ? records(deps, await deps.store.recentIds(15)) : Promise.resolve([]),
    deps.controls.freeze(),
    viewer ? dashboardOf(deps) : undefined,
  ]);
  const pending = dashboard ? dashboard.waiting : open.filter((r) => r.state === 'pending');
  const mine = isApprover ? pending.filter((r) => needsVoteOf(user, r)).slice(0, 15) : [];
  const approver = isApprover ? { user, links: await cardLinks(client, mine) } : undefined;
  const links = dashboard ? await cardLinks(client, dashboard.outcomes) : new Map<string, string>();
  await client.views.publish({
    user_id: user,
    view: homeView({
      pending,
      recent,
      sandbox: deps.sandbox,
      freeze,
      ...(approver ? { approver } : {}),
      ...(channel ? { channel } : {}),
      ...(dashboard ? { dashboard: { data: dashboard, links, now: deps.now() } } : {}),
      ...(viewer ? {} : { figuresHidden: true }),
    }),
  });
}

export function registerHome(app: App, deps: Deps): void {
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
