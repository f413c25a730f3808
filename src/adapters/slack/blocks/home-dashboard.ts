/**
 * App Home's dashboard blocks (issue 24), pure: balances now and a 30-day chart per asset for
 * each wallet, each velocity rule's use against its limit (a bar per rule), and the last ten
 * outcomes with links to their threads. Every chart is Slack's chart block with its numbers in
 * text beside it.
 */
import type { KnownBlock } from '@slack/types';
import type { Dashboard, WalletPanel } from '../../../app/dashboard.js';
import { assetLabel } from '../../../app/dashboard-charts.js';
import { type ChartSpec, chartBlock, chartText } from '../../../charts/chart-spec.js';
import { amountToString, formatAmount, formatNumber } from '../../../domain/amount.js';
import type { RequestRecord } from '../../../domain/request.js';
import { summaryLine } from './card-summary.js';
import { type Blocks, context, esc, link, section, slackDate } from './common.js';

const chart = (spec: ChartSpec): Blocks => [
  chartBlock(spec) as unknown as KnownBlock, // not in @slack/types; typed with zod in chart-spec.ts
  context(esc(chartText(spec)).slice(0, 3000)),
];

/** "3 h", "2 d": how long something has waited. */
export function age(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h` : `${Math.floor(h / 24)} d`;
}

function walletBlocks(p: WalletPanel): Blocks {
  const figures = p.balances
    ? Object.entries(p.balances.available)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([asset, v]) => `${formatNumber(v, 6)} ${esc(assetLabel(asset))}`)
        .join(' · ')
    : '';
  const line = p.balances
    ? `*${esc(p.alias)}* · ${figures || 'no balances'} · as of ${slackDate(p.balances.at)}`
    : `*${esc(p.alias)}* · _not read yet: the first snapshot comes within SNAPSHOT_EVERY_`;
  return [
    section(line),
    ...p.charts.flatMap((c) => [
      ...chart(c.spec),
      ...(c.gapDays.length
        ? [context(`No reading on ${c.gapDays.map(esc).join(', ')} (the service did not answer).`)]
        : []),
    ]),
  ];
}

function limitBlocks(d: Dashboard): Blocks {
  if (d.limits.length === 0) return [context('No velocity limits are set (VELOCITY_LIMITS).')];
  const label = (l: Dashboard['limits'][number]) => `${l.walletAlias} ${l.rule.code} ${l.rule.windowLabel}`;
  const num = (units: bigint, decimals: number) => Number(amountToString({ units, decimals }));
  const spec: ChartSpec = {
    kind: 'bar',
    title: 'Velocity limits: used and limit',
    categories: d.limits.map(label),
    series: [
      { name: 'Used', values: d.limits.map((l) => num(l.used, l.rule.decimals)) },
      { name: 'Limit', values: d.limits.map((l) => num(l.rule.limit, l.rule.decimals)) },
    ],
  };
  const lines = d.limits.map(
    (l) =>
      `• *${esc(l.walletAlias)} ${esc(l.rule.code)}*: ${formatAmount({ units: l.used, decimals: l.rule.decimals })} of ${formatAmount({ units: l.rule.limit, decimals: l.rule.decimals })} used in the last ${esc(l.rule.windowLabel)}`,
  );
  return [chartBlock(spec) as unknown as KnownBlock, section(lines.join('\n'))];
}

function outcomeLine(r: RequestRecord, links: ReadonlyMap<string, string>): string {
  const url = links.get(r.frozen.id);
  return `*${r.frozen.id}* · ${summaryLine(r.frozen)} · ${r.state} ${slackDate(r.decidedAt ?? r.frozen.createdAt)}${url ? ` · ${link(url, 'Thread')}` : ''}`;
}

export function dashboardBlocks(d: Dashboard): Blocks {
  return [
    section('*Balances now*'),
    ...d.wallets.flatMap(walletBlocks),
    { type: 'divider' },
    section('*Outflow against velocity limits*'),
    ...limitBlocks(d),
    { type: 'divider' },
  ];
}

export function outcomeBlocks(d: Dashboard, links: ReadonlyMap<string, string>): Blocks {
  return [
    section('*Last ten outcomes*'),
    section(d.outcomes.length ? d.outcomes.map((r) => outcomeLine(r, links)).join('\n') : '_No outcomes yet._'),
  ];
}
