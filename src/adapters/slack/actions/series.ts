/**
 * Skip next run and End series, wherever they show (the series' card, the notice before a run,
 * /schedules, App Home's "Coming up"): ack at once, then the use case (app.series), then its one
 * sentence to the clicker privately — the loser of a race is told which happened
 * (domain/series-answers.ts). A click on App Home redraws that person's App Home.
 */
import type { BlockButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { slackActor } from '../../../domain/actor.js';
import { isSeriesId } from '../../../domain/series.js';
import { type SeriesActionOutcome, seriesActionSentence } from '../../../domain/series-answers.js';
import { parseSkipRunValue, SERIES_ACTIONS } from '../blocks/series-actions.js';
import type { Deps } from '../deps.js';
import { publishHome } from '../events/home.js';
import type { Routes } from '../routes.js';
import { tell } from './approval.js';

const mention = (user: string) => `<@${user}>`;

/** The sentence to the clicker; from App Home, that App Home shows the change too. */
async function answer(client: WebClient, deps: Deps, body: BlockButtonAction, outcome: SeriesActionOutcome) {
  const home = body.view?.type === 'home';
  // App Home has no channel: answer in the app's Messages tab kept in the view, else the person's DM.
  const channel = body.channel?.id ?? (home ? body.view?.private_metadata || body.user.id : undefined);
  await tell(
    client,
    deps,
    { user: body.user.id, channel, requestId: undefined },
    seriesActionSentence(outcome, mention),
  );
  if (outcome.kind === 'approver-check-failed')
    deps.log.warn({ err: outcome.error }, 'approvers not read for a series');
  if (home)
    await publishHome(deps, client, body.user.id, body.view?.private_metadata || undefined).catch((err: unknown) =>
      deps.log.warn({ err }, 'could not redraw App Home after a series action'),
    );
}

/** The fixed id alone (a card, a notice) or followed by what it names (blocks/card-series.ts listedActionId). */
const either = (action: string) => new RegExp(`^${action}(:.+)?$`);

export function registerSeriesActions(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(either(SERIES_ACTIONS.skipRun), async ({ ack, body, action, client }) => {
    await ack();
    const run = parseSkipRunValue(action.value ?? '');
    if (!run) return;
    const outcome = await deps.app.series.skipRun(slackActor(body.user.id), run.seriesId, run.k);
    await answer(client, deps, body, outcome);
  });
  app.action<BlockButtonAction>(either(SERIES_ACTIONS.end), async ({ ack, body, action, client }) => {
    await ack();
    const id = action.value ?? '';
    if (!isSeriesId(id)) return;
    const outcome = await deps.app.series.end(slackActor(body.user.id), id);
    await answer(client, deps, body, outcome);
  });
}
