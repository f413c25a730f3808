/**
 * The treasury report as Block Kit, pure. Each chart is Slack's own
 * `data_visualization` block, or — where the workspace refused it — an image block showing the
 * uploaded PNG (`slack_file`); either way its summary line comes first in text (never a picture
 * alone). Batch rows are named as the batch card names them, and the team's own wallets by name.
 */
import type { KnownBlock } from '@slack/types';
import type { ReportView } from '../../../app/report.js';
import { chartBlock, chartText } from '../../../charts/chart-spec.js';
import { shortAddress } from '../../../domain/address.js';
import { amountToString, formatAmount } from '../../../domain/amount.js';
import type { Payment } from '../../../domain/report.js';
import { type Blocks, code, context, esc, header, section } from './common.js';

/** How the charts are shown: Slack's chart block, or the ids of uploaded PNGs (one per chart). */
export type ChartMode = { kind: 'native' } | { kind: 'images'; fileIds: readonly string[] };

const money = (p: Payment) => `${formatAmount({ units: p.units, decimals: p.decimals })} ${esc(p.code)}`;
/** One short form everywhere people read an address: first 6, last 4 (domain/address.ts). */
const shortDest = shortAddress;
const minutes = (ms: number) =>
  ms < 60_000
    ? `${Math.round(ms / 1000)} s`
    : ms < 3_600_000
      ? `${Math.round(ms / 60_000)} min`
      : `${(ms / 3_600_000).toFixed(1)} h`;

/** "B-1003 row 2", as the batch card and receipt name its rows; a single request's id as it is. */
export const paymentName = (p: Pick<Payment, 'id' | 'name'>): string => p.name ?? p.id;

const destinationOf = (p: Payment) =>
  p.ownWallet ? `${esc(p.ownWallet)} (own wallet)` : code(shortDest(p.destination));

/** The chart's summary line first (read before the picture), the chart, then its limit in words if not drawn. */
function chartBlocks(view: ReportView, index: number, mode: ChartMode): Blocks {
  const spec = view.charts[index];
  if (!spec) return [];
  const words = view.summaries[index];
  const fileId = mode.kind === 'images' ? mode.fileIds[index] : undefined;
  // The chart block is not in @slack/types (chart-spec.ts types it with zod).
  const shown = (fileId
    ? { type: 'image', slack_file: { id: fileId }, alt_text: chartText(spec).slice(0, 2000) }
    : chartBlock(spec)) as unknown as KnownBlock;
  return [
    context(`*${esc(spec.title)}*: ${esc(words?.summary ?? '')}`),
    shown,
    ...(words?.limitNote ? [context(`Limit: ${esc(words.limitNote)}`)] : []),
  ];
}

const list = (items: string[], none: string) => (items.length ? items.join('\n') : none);

export function reportTitle(days: number): string {
  return `Treasury report, last ${days} days`;
}

export function reportBlocks(view: ReportView, days: number, mode: ChartMode, footer?: string): Blocks {
  const { report } = view;
  const totals = Object.entries(report.totals)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `• ${esc(k)}: ${n}`);
  const largest = report.largest.map(
    (p) => `• ${code(paymentName(p))} ${money(p)} to ${destinationOf(p)} from ${esc(p.wallet)}`,
  );
  const first = report.firstTime.map(
    (p) => `• ${code(shortDest(p.destination))} (${esc(p.kind)}, ${code(paymentName(p))}, ${money(p)})`,
  );
  const unknown = report.unresolved.map(
    (p) =>
      `• :warning: ${code(paymentName(p))} ${money(p)} — outcome unknown; once checked, an approver records it with \`/resolve ${esc(paymentName(p))} paid|not-paid …\``,
  );
  const approval = report.approval
    ? `Median ${minutes(report.approval.median)}, slowest ${minutes(report.approval.slowest)} (${report.approval.count} decided)`
    : 'No approvals decided in this window.';
  const blocks: Blocks = [
    header(reportTitle(days)),
    context(
      `${esc(report.days[0] ?? '')} to ${esc(report.days.at(-1) ?? '')} (${esc(report.window.zone)}) · from Rampart's records`,
    ),
    ...(view.charts.length === 0
      ? [section('No payment succeeded in this window, so there is no outflow to chart.')]
      : view.charts.flatMap((_spec, i) => chartBlocks(view, i, mode))),
    section(`*Totals by kind and outcome*\n${list(totals, 'No payments in this window.')}`),
    section(`*Ten largest payments*\n${list(largest, 'None.')}`),
    section(`*Paid for the first time*\n${list(first, 'None.')}`),
    section(`*How long approvals took*\n${approval}`),
    section(`*Unknown outcomes not yet resolved*\n${list(unknown, 'None.')}`),
    ...(report.openBatches.length > 0
      ? [
          section(
            `*Batches not finished*\n${report.openBatches.map((b) => `• ${code(b.id)} ${esc(b.words)}`).join('\n')}`,
          ),
        ]
      : []),
  ];
  if (footer) blocks.push(context(footer));
  return blocks;
}

/** The plain text of the message (notifications, screen readers). */
export function reportFallbackText(view: ReportView, days: number): string {
  const total = Object.values(view.report.totals).reduce((a, b) => a + b, 0);
  const out = Object.entries(view.report.outflow)
    .map(([c, s]) => `${amountToString({ units: s.perDay.reduce((a, b) => a + b, 0n), decimals: s.decimals })} ${c}`)
    .join(', ');
  return `${reportTitle(days)}: ${total} payments${out ? `, out ${out}` : ''}, ${view.report.unresolved.length} unknown outcome(s) not yet resolved.`;
}
