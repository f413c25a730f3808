/**
 * App Home's balance charts, pure: a wallet's snapshots of the last 30 days as one
 * area chart per asset — each day's last reading; a day with only gaps is left out (named in the
 * text beside it), never drawn as zero. Each chart carries its summary line (chart-summary.ts).
 */

import type { ChartSpec } from '../charts/chart-spec.js';
import { balanceSummary } from '../charts/chart-summary.js';
import { dayOf } from '../domain/report.js';
import { assetName } from '../presenters/money.js';
import type { Snapshot } from '../store/balance-history.js';

/** "base:usdc" → "USDC on base". */
/** "USDC on Base", "cNGN on BNB Smart Chain": the asset as every other surface names it. */
export const assetLabel = (assetId: string): string => assetName(assetId);

export interface BalanceChart {
  spec: ChartSpec;
  /** Days (YYYY-MM-DD) that had snapshots but no successful reading. */
  gapDays: string[];
  /** The line read before the chart: now, low, high, change over the span. */
  summary: string;
}

export function balanceCharts(alias: string, snapshots: readonly Snapshot[], zone: string): BalanceChart[] {
  const perAsset = new Map<string, Map<string, number>>();
  const readDays = new Set<string>();
  const allDays = new Set<string>();
  for (const s of snapshots) {
    const day = dayOf(s.at, zone);
    allDays.add(day);
    if (s.gap) continue;
    readDays.add(day);
    for (const [asset, value] of Object.entries(s.available)) {
      const days = perAsset.get(asset) ?? new Map<string, number>();
      days.set(day, value); // oldest first: the day's last reading wins
      perAsset.set(asset, days);
    }
  }
  const gapDays = [...allDays].filter((d) => !readDays.has(d)).sort();
  return [...perAsset.entries()]
    .filter(([, days]) => [...days.values()].some((v) => v !== 0))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([asset, days]) => {
      const ordered = [...days.entries()].sort(([a], [b]) => a.localeCompare(b));
      return {
        spec: {
          kind: 'area',
          title: `${alias}: ${assetLabel(asset)}, 30 days`,
          categories: ordered.map(([d]) => d.slice(5)),
          series: [{ name: assetLabel(asset), values: ordered.map(([, v]) => v) }],
        },
        gapDays,
        summary: balanceSummary(
          ordered.map(([d]) => d),
          ordered.map(([, v]) => v),
          '30-day',
        ),
      };
    });
}
