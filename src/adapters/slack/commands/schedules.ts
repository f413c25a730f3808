/** /schedules: every series and what comes next, privately (treasury figures: VIEWERS only). */
import { schedulesBlocks } from '../blocks/schedules.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import { respondBlocks, respondError } from '../respond.js';
import type { Routes } from '../routes.js';
import { canView, NOT_A_VIEWER } from '../viewers.js';

export function registerSchedulesCommand(app: Routes, deps: Deps): void {
  app.command('/schedules', async ({ command, ack, respond, client }) => {
    const text = (command.text ?? '').trim().toLowerCase();
    if (isHelp(text) || (text !== '' && text !== 'list')) {
      await ack({ response_type: 'ephemeral', text: USAGE.schedules });
      return;
    }
    await ack();
    try {
      if (!(await canView(deps, client, command.user_id)))
        return void (await respond({ response_type: 'ephemeral', text: NOT_A_VIEWER }));
      await respondBlocks(respond, 'Series', schedulesBlocks(await deps.app.series.list()));
    } catch (err) {
      await respondError(respond, deps, err, USAGE.schedules);
    }
  });
}
