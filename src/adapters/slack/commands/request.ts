/** /transfer and /offramp: open the modal first (trigger_id lives 3 s), pre-filled from the text. */
import type { WebClient } from '@slack/web-api';
import { type Prefill, parseRequestText } from '../../../domain/command-text.js';
import { refreshAssets } from '../asset-choices.js';
import { requestModal } from '../blocks/request-modal.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import type { CommandHandler, Routes } from '../routes.js';

interface OpenRequest {
  kind: 'transfer' | 'offramp';
  channel: string;
  triggerId: string;
  prefill: Prefill;
}

/** Opens the request modal; shared by the commands and App Home's buttons. */
export async function openRequestModal(client: WebClient, deps: Deps, o: OpenRequest): Promise<void> {
  const meta = { kind: o.kind, channel: o.channel, prefill: o.prefill };
  let opened: { id?: string; hash?: string } | undefined;
  try {
    opened = (
      await client.views.open({
        trigger_id: o.triggerId,
        view: requestModal(meta, deps.config.wallets, o.prefill, undefined, deps.config.time.zone),
      })
    ).view;
  } catch (err) {
    deps.log.error({ err }, `could not open the ${o.kind} modal`);
    return;
  }
  // A mistyped wallet stays unchosen: the list is refreshed for none.
  const wallet = o.prefill.wallet
    ? deps.config.wallets.find((w) => w.alias === o.prefill.wallet)
    : deps.config.wallets[0];
  if (opened?.id && wallet)
    await refreshAssets(
      client,
      deps,
      { id: opened.id, ...(opened.hash ? { hash: opened.hash } : {}) },
      meta,
      wallet.alias,
    );
}

/** /transfer or /offramp: the usage on `help`, else the modal pre-filled from the text. */
export const requestCommand =
  (kind: OpenRequest['kind'], deps: Deps): CommandHandler =>
  async ({ command, ack, client }) => {
    if (isHelp(command.text ?? '')) {
      await ack({ response_type: 'ephemeral', text: USAGE[kind] });
      return;
    }
    await ack();
    const prefill = parseRequestText(command.text ?? '');
    await openRequestModal(client, deps, {
      kind,
      channel: command.channel_id,
      triggerId: command.trigger_id,
      prefill,
    });
  };

export function registerRequestCommands(app: Routes, deps: Deps): void {
  for (const kind of ['transfer', 'offramp'] as const) app.command(`/${kind}`, requestCommand(kind, deps));
}
