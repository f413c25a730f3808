/**
 * The batch form's choices, as the transfer form's (asset-choices.ts): wallets that cannot pay
 * are marked ("inactive", "transfers off"), and the assets are those the chosen wallet holds,
 * each with its available amount. Read after the modal is open (trigger_id lives 3 s); the reads
 * are the app's (app/asset-choices.ts); this listener only redraws, and is quiet on failure.
 */
import type { WebClient } from '@slack/web-api';
import { type BatchModalPrior, batchMetaSchema, batchModal } from './blocks/batch-modal.js';
import type { Deps } from './deps.js';
import { readMetadata } from './metadata.js';

type Values = Record<string, Record<string, { selected_option?: { value?: string } | null }>>;

/** Redraws the open batch form for `prior.wallet` (or the first usable wallet). */
export async function refreshBatchChoices(
  client: WebClient,
  deps: Deps,
  view: { id: string; hash?: string },
  channel: string,
  prior: BatchModalPrior,
): Promise<void> {
  try {
    const wallets = await deps.app.reads.walletChoices(prior.kind === 'offramps' ? 'offramp' : 'transfer');
    const chosen = prior.wallet
      ? wallets.find((w) => w.alias === prior.wallet)
      : (wallets.find((w) => !w.note) ?? wallets[0]);
    const assets = chosen ? await deps.app.reads.heldAssets(chosen.id) : [];
    await client.views.update({
      view_id: view.id,
      ...(view.hash ? { hash: view.hash } : {}),
      // No asset held: the full list stays; checking the file says what is wrong.
      view: batchModal({ channel }, wallets, { ...prior, wallet: chosen?.alias }, assets.length ? assets : undefined),
    });
  } catch (err) {
    deps.log.warn({ err }, 'could not refresh the batch form’s wallets and assets');
  }
}

/**
 * A wallet chosen on the batch form (the request form's wallet listener hands it here: one
 * action id, WALLET_ACTION, for both forms' wallet selects).
 */
export async function batchWalletChosen(
  client: WebClient,
  deps: Deps,
  view: { id: string; hash?: string; private_metadata?: string; state?: { values?: unknown } },
  wallet: string,
): Promise<void> {
  const meta = readMetadata(batchMetaSchema, view.private_metadata ?? '');
  if (!meta.ok) return;
  const v = (view.state?.values ?? {}) as Values;
  const pick = (block: string) => Object.values(v[block] ?? {})[0]?.selected_option?.value ?? undefined;
  await refreshBatchChoices(
    client,
    deps,
    { id: view.id, ...(view.hash ? { hash: view.hash } : {}) },
    meta.value.channel,
    {
      kind: pick('kind'),
      wallet,
    },
  );
}
