/** app_home_opened: publish the person's App Home. */
import type { App } from '@slack/bolt';
import type { RequestRecord } from '../../domain/request.js';
import { homeView } from '../blocks/home.js';
import type { Deps } from '../deps.js';

async function records(deps: Deps, ids: string[]): Promise<RequestRecord[]> {
  const all = await Promise.all(ids.map((id) => deps.store.get(id)));
  return all.filter((r): r is RequestRecord => r !== undefined).sort((a, b) => b.frozen.createdAt - a.frozen.createdAt);
}

export function registerHome(app: App, deps: Deps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    try {
      const [open, recent, freeze] = await Promise.all([
        records(deps, await deps.store.openIds()),
        records(deps, await deps.store.recentIds(15)),
        deps.controls.freeze(),
      ]);
      await client.views.publish({
        user_id: event.user,
        view: homeView(
          open.filter((r) => r.state === 'pending'),
          recent,
          deps.sandbox,
          freeze,
        ),
      });
    } catch (err) {
      deps.log.error({ err }, 'could not publish App Home');
    }
  });
}
