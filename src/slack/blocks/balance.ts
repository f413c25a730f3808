/** /balance answer: one wallet's state and balances, aligned for reading at 3 a.m. */

import { formatNumber } from '../../domain/amount.js';
import { type AssetId, assetInfo, CHAINS, explorerAddressUrl, isAssetId } from '../../domain/assets.js';
import type { BalanceEntry, Wallet } from '../../service/schemas.js';
import { type Blocks, context, esc, header, link, section } from './common.js';

export interface WalletView {
  alias: string | undefined;
  wallet: Wallet;
  balances: BalanceEntry[];
}

const pad = (s: string, n: number) => s.padEnd(n);
const padStart = (s: string, n: number) => s.padStart(n);

function decimalsOf(id: string): number {
  return isAssetId(id) ? assetInfo(id as AssetId).decimals : 6;
}

export function balanceTable(balances: BalanceEntry[]): string {
  if (balances.length === 0) return '_No balances on this wallet._';
  const rows = balances.map((b) => {
    const d = decimalsOf(b.id);
    return [
      b.code,
      b.blockchain.name,
      formatNumber(b.balance, d),
      formatNumber(b.available, d),
      formatNumber(b.debt, d),
    ];
  });
  const head = ['Asset', 'Chain', 'Balance', 'Available', 'Debt'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i < 2 ? pad(c, widths[i] ?? 0) : padStart(c, widths[i] ?? 0))).join('  ');
  return `\`\`\`${[line(head), ...rows.map(line)].join('\n')}\`\`\``;
}

export function walletBlocks(view: WalletView): Blocks {
  const { wallet, balances } = view;
  const name = view.alias ? `${view.alias} (${wallet.id})` : wallet.id;
  const flags: string[] = [];
  if (!wallet.is_active) flags.push(':no_entry: *Inactive*: nothing can be sent from this wallet.');
  const indebted = balances.filter((b) => b.debt > 0);
  if (indebted.length > 0) flags.push(`:warning: *Debt* on ${indebted.map((b) => b.code).join(', ')}.`);
  const caps = (['transfer', 'swap', 'offramp'] as const)
    .map((c) => `${wallet[c] ? ':white_check_mark:' : ':x:'} ${c}`)
    .join('   ');
  const blocks: Blocks = [
    header(`Wallet ${name}`.slice(0, 150)),
    section(
      [
        `${wallet.is_active ? ':large_green_circle: Active' : ':red_circle: Inactive'}   ${caps}`,
        `EVM ${link(explorerAddressUrl('ethereum', wallet.address.evm), wallet.address.evm)}`,
        `SVM ${link(explorerAddressUrl('solana', wallet.address.svm), wallet.address.svm)}`,
      ].join('\n'),
    ),
  ];
  if (flags.length > 0) blocks.push(section(flags.join('\n')));
  blocks.push(section(balanceTable(balances)));
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
        `${hidden.length} more wallet(s) not shown here: ${esc(hidden.join(', '))}. Ask for one with \`/balance &lt;wallet&gt;\`.`,
      ),
    );
  }
  blocks.push(
    context(
      `Fetched <!date^${Math.floor(fetchedAt / 1000)}^{time_secs}|${new Date(fetchedAt).toISOString()}>. Chains: ${Object.keys(CHAINS).length} supported.`,
    ),
  );
  return blocks;
}
