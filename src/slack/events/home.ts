/** app_home_opened: publish the person's App Home. */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { RequestRecord } from '../../domain/request.js';
import { homeView, needsVoteOf } from '../blocks/home.js';
import type { Deps } from '../deps.js';

async function records(deps: Deps, ids: string[]): Promise<RequestRecord[]> {
  const all = await Promise.all(ids.map((id) => deps.store.get(id)));
  return all.filter((r): r is RequestRecord => r !== undefined).sort((a, b) => b.frozen.createdAt - a.frozen.createdAt);
}

/** Issue 23 item 11: each card's link; a card Slack cannot link is listed without one. */
async function cardLinks(client: WebClient, list: RequestRecord[]): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  await Promise.all(
    list.map(async (r) => {
      if (!r.card) return;
      const res = await client.chat
        .getPermalink({ channel: r.card.channel, message_ts: r.card.ts })
        .catch(() => undefined);
      if (res?.permalink) links.set(r.frozen.id, res.permalink);
    }),
  );
  return links;
}

export function registerHome(app: App, deps: Deps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    try {
      const [open, recent, freeze, isApprover] = await Promise.all([
        records(deps, await deps.store.openIds()),
        records(deps, await deps.store.recentIds(15)),
        deps.controls.freeze(),
        deps.approvers.isApprover(event.user).catch(() => false),
      ]);
      const pending = open.filter((r) => r.state === 'pending');
      const mine = isApprover ? pending.filter((r) => needsVoteOf(event.user, r)).slice(0, 15) : [];
      const approver = isApprover ? { user: event.user, links: await cardLinks(client, mine) } : undefined;
      await client.views.publish({
        user_id: event.user,
        view: homeView({
          pending,
          recent,
          sandbox: deps.sandbox,
          freeze,
          ...(approver ? { approver } : {}),
          ...(event.channel ? { channel: event.channel } : {}),
        }),
      });
    } catch (err) {
      deps.log.error({ err }, 'could not publish App Home');
    }
  });
}
