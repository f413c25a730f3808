/**
 * The request modal's asset list: only what the chosen wallet holds, each with its available
 * amount. Fetched after the modal is open, never before (trigger_id lives 3 s). The reads
 * are the app's (app/asset-choices.ts); this listener only redraws.
 */
import type { BlockStaticSelectAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Prefill } from '../../domain/command-text.js';
import { batchWalletChosen } from './batch-choices.js';
import { BATCH_CALLBACK } from './blocks/batch-modal.js';
import { type ModalMeta, modalMetaSchema, requestModal, WALLET_ACTION } from './blocks/request-modal.js';
import type { Deps } from './deps.js';
import { readMetadata } from './metadata.js';
import type { Routes } from './routes.js';

/** Rebuilds the open modal for `walletAlias` with that wallet's assets; quiet on failure. */
export async function refreshAssets(
  client: WebClient,
  deps: Deps,
  view: { id: string; hash?: string },
  meta: ModalMeta,
  walletAlias: string,
): Promise<void> {
  const wallet = deps.config.wallets.find((w) => w.alias === walletAlias);
  if (!wallet) return;
  try {
    const [assets, wallets] = await Promise.all([
      deps.app.reads.heldAssets(wallet.id),
      deps.app.reads.walletChoices(meta.kind),
    ]);
    if (assets.length === 0) return; // keep the full list; submit will say what is wrong
    const prefill: Prefill = { ...meta.prefill, wallet: walletAlias };
    await client.views.update({
      view_id: view.id,
      ...(view.hash ? { hash: view.hash } : {}),
      view: requestModal(meta, wallets, prefill, assets, deps.config.time.zone),
    });
  } catch (err) {
    // The person can still choose from the full list; submit checks the balance anyway.
    deps.log.warn({ err }, 'could not refresh the asset list');
  }
}

export function registerAssetChoices(app: Routes, deps: Deps): void {
  app.action<BlockStaticSelectAction>(WALLET_ACTION, async ({ ack, body, action, client }) => {
    await ack();
    if (!body.view) return;
    if (body.view.callback_id === BATCH_CALLBACK)
      return batchWalletChosen(client, deps, body.view, action.selected_option.value);
    const meta = readMetadata(modalMetaSchema, body.view.private_metadata);
    // The full list stays; submitting says what is wrong with the form.
    if (!meta.ok) return;
    const m: ModalMeta = { kind: meta.value.kind, channel: meta.value.channel, prefill: meta.value.prefill ?? {} };
    await refreshAssets(client, deps, { id: body.view.id, hash: body.view.hash }, m, action.selected_option.value);
  });
}
