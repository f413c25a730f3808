/**
 * The request modal's asset list: only what the chosen wallet holds, each with its available
 * amount (issue 4). Fetched after the modal is open, never before (trigger_id lives 3 s).
 */
import type { App, BlockStaticSelectAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { formatNumber } from '../domain/amount.js';
import { assetInfo, isAssetId } from '../domain/assets.js';
import type { Prefill } from '../domain/command-text.js';
import {
  type AssetChoice,
  type ModalMeta,
  modalMetaSchema,
  requestModal,
  WALLET_ACTION,
  type WalletChoice,
} from './blocks/request-modal.js';
import type { Deps } from './deps.js';
import { readMetadata } from './metadata.js';

export async function heldAssets(deps: Pick<Deps, 'service'>, walletId: string): Promise<AssetChoice[]> {
  const balances = await deps.service.getBalances(walletId);
  return balances
    .filter((b) => isAssetId(b.id) && b.available > 0)
    .map((b) => {
      const a = assetInfo(b.id as Parameters<typeof assetInfo>[0]);
      return { id: a.id, note: `${formatNumber(b.available, a.decimals)} available` };
    });
}

/**
 * Issue 23 item 17: each configured wallet, marked when it cannot do this job (inactive, or the
 * capability off), before anyone submits. A wallet that could not be read is listed unmarked.
 */
export async function walletChoices(deps: Pick<Deps, 'service' | 'config'>, kind: 'transfer' | 'offramp') {
  return Promise.all(
    deps.config.wallets.map(async (w): Promise<WalletChoice> => {
      const info = await deps.service.getWallet(w.id).catch(() => undefined);
      const note = !info ? undefined : !info.is_active ? 'inactive' : info[kind] ? undefined : `${kind}s off`;
      return { alias: w.alias, id: w.id, note };
    }),
  );
}

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
    const [assets, wallets] = await Promise.all([heldAssets(deps, wallet.id), walletChoices(deps, meta.kind)]);
    if (assets.length === 0) return; // keep the full list; submit will say what is wrong
    const prefill: Prefill = { ...meta.prefill, wallet: walletAlias };
    await client.views.update({
      view_id: view.id,
      ...(view.hash ? { hash: view.hash } : {}),
      view: requestModal(meta, wallets, prefill, assets),
    });
  } catch (err) {
    // The person can still choose from the full list; submit checks the balance anyway.
    deps.log.warn({ err }, 'could not refresh the asset list');
  }
}

export function registerAssetChoices(app: App, deps: Deps): void {
  app.action<BlockStaticSelectAction>(WALLET_ACTION, async ({ ack, body, action, client }) => {
    await ack();
    if (!body.view) return;
    const meta = readMetadata(modalMetaSchema, body.view.private_metadata);
    // The full list stays; submitting says what is wrong with the form.
    if (!meta.ok) return;
    const m: ModalMeta = { kind: meta.value.kind, channel: meta.value.channel, prefill: meta.value.prefill ?? {} };
    await refreshAssets(client, deps, { id: body.view.id, hash: body.view.hash }, m, action.selected_option.value);
  });
}
