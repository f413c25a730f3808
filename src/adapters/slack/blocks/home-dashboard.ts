/**
 * App Home's dashboard blocks, pure, laid out to be read on a phone: balances now as
 * one line per wallet, each velocity rule's use in words, the last ten outcomes, and then the
 * 30-day charts of one wallet at a time (a button per other wallet shows its charts instead).
 * Each chart is Slack's chart block preceded by its summary line (now, low, high, change).
 */
import type { KnownBlock } from '@slack/types';
import type { Dashboard, WalletPanel } from '../../../app/dashboard.js';
import { assetLabel } from '../../../app/dashboard-charts.js';
import { chartBlock } from '../../../charts/chart-spec.js';
import { formatAmount, formatNumber } from '../../../domain/amount.js';
import type { RequestRecord } from '../../../domain/request.js';
import { summaryLine } from './card-summary.js';
import { type Blocks, context, esc, link, plain, section, slackDate } from './common.js';

/** Shows another wallet's charts on App Home; the button's value is the wallet alias. */
export const HOME_CHARTS_ACTION = 'home_wallet_charts';

/** The most charts one wallet shows (App Home holds at most 100 blocks; each chart takes two). */
export const MAX_WALLET_CHARTS = 8;

/** "3 h", "2 d": how long something has waited. */
export function age(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h` : `${Math.floor(h / 24)} d`;
}

/** One line per wallet: the assets it holds, how many it holds none of, and when it was read. */
function balanceLine(p: WalletPanel): string {
  if (!p.balances) return `*${esc(p.alias)}* · _not read yet: the first snapshot comes within SNAPSHOT_EVERY_`;
  const entries = Object.entries(p.balances.available).sort(([a], [b]) => a.localeCompare(b));
  const held = entries
    .filter(([, v]) => v !== 0)
    .map(([asset, v]) => `${formatNumber(v, 6)} ${esc(assetLabel(asset))}`);
  const empty = entries.length - held.length;
  const figures = [...held, ...(empty > 0 ? [`${empty === 1 ? '1 other asset' : `${empty} other assets`} at 0`] : [])];
  return `*${esc(p.alias)}* · ${figures.join(' · ') || 'no balances'} · as of ${slackDate(p.balances.at)}`;
}

/** "ops USDC: 25.00 of 200,000.00 per 24 h" for each rule. */
function limitLines(d: Dashboard): string {
  // The setting's name as code: its own underscore would end Slack's italics mid-word.
  if (d.limits.length === 0) return 'No velocity limits are set (`VELOCITY_LIMITS`).';
  return d.limits
    .map(
      (l) =>
        `• *${esc(l.walletAlias)} ${esc(l.rule.code)}*: ${formatAmount({ units: l.used, decimals: l.rule.decimals })} of ${formatAmount({ units: l.rule.limit, decimals: l.rule.decimals })} per ${esc(l.rule.windowLabel)}`,
    )
    .join('\n');
}

function outcomeLine(r: RequestRecord, links: ReadonlyMap<string, string>): string {
  const url = links.get(r.sealed.id);
  return `*${r.sealed.id}* · ${summaryLine(r.sealed)} · ${r.state} ${slackDate(r.decidedAt ?? r.sealed.createdAt)}${url ? ` · ${link(url, 'Thread')}` : ''}`;
}

/** Balances now, one line per wallet. */
export function balanceBlocks(d: Dashboard): Blocks {
  return [section(`*Balances now*\n${d.wallets.map(balanceLine).join('\n')}`)];
}

/** Velocity limits in words, then the last ten outcomes. */
export function activityBlocks(d: Dashboard, links: ReadonlyMap<string, string>): Blocks {
  return [
    section(`*Velocity limits*\n${limitLines(d)}`),
    { type: 'divider' },
    section('*Last ten outcomes*'),
    section(d.outcomes.length ? d.outcomes.map((r) => outcomeLine(r, links)).join('\n') : '_No outcomes yet._'),
  ];
}

/** The wallet whose charts are shown: the one asked for, else the first with any chart. */
export function expandedWallet(d: Dashboard, asked: string | undefined): WalletPanel | undefined {
  return d.wallets.find((w) => w.alias === asked) ?? d.wallets.find((w) => w.charts.length > 0);
}

/** One wallet's 30-day charts, each after its summary line; a button for each other wallet with charts. */
export function chartBlocks(d: Dashboard, asked?: string): Blocks {
  const shown = expandedWallet(d, asked);
  if (!shown) return [];
  const others = d.wallets.filter((w) => w !== shown && w.charts.length > 0);
  const blocks: Blocks = [section(`*${esc(shown.alias)}, last 30 days*`)];
  for (const c of shown.charts.slice(0, MAX_WALLET_CHARTS)) {
    blocks.push(
      context(`*${esc(c.spec.series[0]?.name ?? '')}*: ${esc(c.summary)}`),
      chartBlock(c.spec) as unknown as KnownBlock, // not in @slack/types; typed with zod in chart-spec.ts
    );
  }
  const gaps = shown.charts[0]?.gapDays ?? [];
  if (gaps.length) blocks.push(context(`No reading on ${gaps.map(esc).join(', ')} (the service did not answer).`));
  if (others.length) {
    blocks.push({
      type: 'actions',
      block_id: 'home_wallet_charts',
      elements: others.slice(0, 25).map((w) => ({
        type: 'button',
        text: plain(`${w.alias} charts`, 75),
        action_id: `${HOME_CHARTS_ACTION}:${w.alias}`,
        value: w.alias,
      })),
    });
  }
  return blocks;
}
