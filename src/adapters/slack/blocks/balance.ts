/** /balance answer: one wallet's state and balances, one line per asset for reading at 3 a.m. on a phone. */

import type { BalanceEntry, Wallet } from '../../../app/reads/service-reads.js';
import { formatNumber } from '../../../domain/amount.js';
import { type AssetId, assetInfo, explorerAddressUrl, isAssetId } from '../../../domain/assets.js';
import { plural } from '../../../domain/words.js';
import { type Blocks, context, esc, header, link, section, slackDate } from './common.js';

export interface WalletView {
  alias: string | undefined;
  wallet: Wallet;
  balances: BalanceEntry[];
}

function decimalsOf(id: string): number {
  return isAssetId(id) ? assetInfo(id as AssetId).decimals : 6;
}

/**
 * One line per asset that reads on a phone — the available amount first, the
 * balance only when it differs, the debt only when there is one; empty assets are left out.
 */
export function balanceLines(balances: BalanceEntry[]): string {
  const shown = balances.filter((b) => b.balance !== 0 || b.available !== 0 || b.debt !== 0);
  if (shown.length === 0) return '_No balances on this wallet._';
  return shown
    .map((b) => {
      const d = decimalsOf(b.id);
      const extra = [
        b.balance !== b.available ? `balance ${formatNumber(b.balance, d)}` : '',
        b.debt > 0 ? `:warning: debt ${formatNumber(b.debt, d)}` : '',
      ].filter(Boolean);
      return `*${formatNumber(b.available, d)} ${esc(b.code)}* available on ${esc(b.blockchain.name)}${extra.length ? ` · ${extra.join(' · ')}` : ''}`;
    })
    .join('\n');
}

export function walletBlocks(view: WalletView): Blocks {
  const { wallet, balances } = view;
  const name = view.alias ? `${view.alias} (${wallet.id})` : wallet.id;
  const flags: string[] = [];
  if (!wallet.is_active) flags.push(':no_entry: *Inactive*: nothing can be sent from this wallet.');
  const indebted = balances.filter((b) => b.debt > 0);
  if (indebted.length > 0)
    flags.push(
      `:warning: *Debt:* ${indebted.map((b) => `${formatNumber(b.debt, decimalsOf(b.id))} ${esc(b.code)} on ${esc(b.blockchain.name)}`).join(', ')}.`,
    );
  // Capabilities in words, not only ✅/❌.
  const caps = ['transfer', 'swap', 'offramp'] as const;
  const can = caps.filter((c) => wallet[c]);
  const cannot = caps.filter((c) => !wallet[c]);
  const capText = [can.length ? `can ${can.join(', ')}` : '', cannot.length ? `cannot ${cannot.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  const blocks: Blocks = [
    header(`Wallet ${name}`.slice(0, 150)),
    section(
      [
        `${wallet.is_active ? ':large_green_circle: Active' : ':red_circle: Inactive'} · ${capText}`,
        `EVM ${link(explorerAddressUrl('ethereum', wallet.address.evm), wallet.address.evm)}`,
        `SVM ${link(explorerAddressUrl('solana', wallet.address.svm), wallet.address.svm)}`,
      ].join('\n'),
    ),
  ];
  if (flags.length > 0) blocks.push(section(flags.join('\n')));
  blocks.push(section(balanceLines(balances)));
  return blocks;
}

// Slack takes 50 blocks per message; keep room for the failures, the footer, the "more" line,
// the share button and the sandbox note.
const MAX_WALLET_BLOCKS = 45;

export function balanceBlocks(
  views: WalletView[],
  fetchedAt: number,
  failures: { alias: string; message: string }[],
): Blocks {
  const blocks: Blocks = [];
  const hidden: string[] = [];
  for (const view of views) {
    const more = walletBlocks(view);
    if (hidden.length > 0 || blocks.length + more.length > MAX_WALLET_BLOCKS) hidden.push(view.alias ?? view.wallet.id);
    else blocks.push(...more);
  }
  if (failures.length > 0) {
    blocks.push(section(failures.map((f) => `:warning: *${esc(f.alias)}*: ${esc(f.message)}`).join('\n')));
  }
  if (hidden.length > 0) {
    blocks.push(
      section(
        `${plural(hidden.length, 'more wallet', 'more wallets')} not shown here: ${esc(hidden.join(', '))}. Ask for one with \`/balance &lt;wallet&gt;\`.`,
      ),
    );
  }
  blocks.push(context(`Fetched ${slackDate(fetchedAt)}.`));
  return blocks;
}
