/** App Home's buttons: the same modal and answer as /transfer, /offramp, /balance. */
import type { BlockButtonAction } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../../app/describe-error.js';
import { balanceAnswer } from '../answers.js';
import { type Blocks, errorBlocks, plain, section } from '../blocks/common.js';
import { HOME_ACTIONS } from '../blocks/home.js';
import { HOME_CHARTS_ACTION } from '../blocks/home-dashboard.js';
import { USAGE } from '../blocks/usage.js';
import { openRequestModal } from '../commands/request.js';
import type { Deps } from '../deps.js';
import { expandWallet, publishHome } from '../events/home.js';
import type { ActionHandler, Routes } from '../routes.js';

const balancesModal = (blocks: Blocks): View => ({
  type: 'modal',
  title: plain('Balances', 24),
  close: plain('Done', 24),
  blocks,
});

/** The modal opens at once (the trigger lives 3 s); the balances replace its first line when read. */
async function openBalances(client: WebClient, deps: Deps, triggerId: string): Promise<void> {
  try {
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: balancesModal([section('_Reading balances…_')]),
    });
    const id = opened.view?.id;
    if (!id) return;
    const blocks = await balanceAnswer(deps, '').catch((err: unknown) =>
      errorBlocks(describeError(err), USAGE.balance),
    );
    await client.views.update({ view_id: id, view: balancesModal(blocks) });
  } catch (err) {
    deps.log.error({ err }, 'could not show balances from App Home');
  }
}

/** Transfer or Offramp on App Home: the same form as the slash command. */
export const homeRequestAction =
  (deps: Deps, kind: 'transfer' | 'offramp'): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, client }) => {
    await ack();
    // Answers go to the App Home's DM (kept in the view), else to the person directly.
    const channel = body.view?.private_metadata || body.user.id;
    await openRequestModal(client, deps, { kind, channel, triggerId: body.trigger_id, prefill: {} });
  };

export const homeBalanceAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, client }) => {
    await ack();
    await openBalances(client, deps, body.trigger_id);
  };

// One wallet's charts at a time: the button shows another wallet's instead.
export const homeChartsAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    expandWallet(body.user.id, action.value ?? '');
    try {
      await publishHome(deps, client, body.user.id, body.view?.private_metadata || undefined);
    } catch (err) {
      deps.log.error({ err }, 'could not show the wallet charts on App Home');
    }
  };

export function registerHomeActions(app: Routes, deps: Deps): void {
  for (const kind of ['transfer', 'offramp'] as const)
    app.action<BlockButtonAction>(HOME_ACTIONS[kind], homeRequestAction(deps, kind));
  app.action<BlockButtonAction>(HOME_ACTIONS.balance, homeBalanceAction(deps));
  app.action<BlockButtonAction>(new RegExp(`^${HOME_CHARTS_ACTION}:`), homeChartsAction(deps));
}
