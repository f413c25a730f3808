/**
 * The report's outflow charts, pure: one bar chart per wallet and asset code, since a
 * velocity limit is one wallet's and is compared with that wallet's outflow only. The limit is a
 * labelled line at its per-day equivalent when the wallet's busiest day reaches 5 % of it; below
 * that the line would flatten the bars to nothing, so it is left out and said in words instead
 * ("ops USDC: 25.00 of 200,000.00 per 24 h").
 */

import type { ChartSpec } from '../charts/chart-spec.js';
import { outflowSummary } from '../charts/chart-summary.js';
import { amountToString, formatAmount } from '../domain/amount.js';
import type { Report } from '../domain/report.js';
import { rulesFor, type VelocityRule } from '../domain/velocity.js';

const DAY = 86_400_000;
/** Under this share of the limit, the busiest day's bar would be too small to read beside the line. */
export const LIMIT_LINE_SHARE = 0.05;

export interface OutflowChart {
  spec: ChartSpec;
  /** The line read before the chart: total, busiest day, days with outflow. */
  summary: string;
  /** The limit in words when its line is left out. */
  limitNote?: string;
}

const asNumber = (units: bigint, decimals: number) => Number(amountToString({ units, decimals }));

/** The wallet's limit for the code as a per-day figure and its label ("200,000.00 per 24 h"). */
function perDayLimit(rule: VelocityRule): { units: bigint; label: string } {
  const limit = formatAmount({ units: rule.limit, decimals: rule.decimals });
  if (rule.windowMs === DAY) return { units: rule.limit, label: `${limit} per ${rule.windowLabel}` };
  const units = (rule.limit * BigInt(DAY)) / BigInt(rule.windowMs);
  return {
    units,
    label: `${limit} per ${rule.windowLabel} (${formatAmount({ units, decimals: rule.decimals })} per day)`,
  };
}

export function outflowCharts(report: Report, rules: readonly VelocityRule[]): OutflowChart[] {
  const categories = report.days.map((d) => d.slice(5)); // MM-DD
  const span = `${report.days.length}-day`;
  const charts: OutflowChart[] = [];
  for (const wallet of Object.keys(report.walletOutflow).sort()) {
    const byCode = report.walletOutflow[wallet] ?? {};
    for (const code of Object.keys(byCode).sort()) {
      const { decimals, perDay } = byCode[code] ?? { decimals: 0, perDay: [] };
      const values = perDay.map((u) => asNumber(u, decimals));
      const rule = rulesFor(rules, wallet, code)[0];
      const limit = rule ? perDayLimit(rule) : undefined;
      let busiest = 0n;
      for (const u of perDay) if (u > busiest) busiest = u;
      // Compared in minor units: busiest ≥ 5 % of the limit.
      const drawn = limit !== undefined && busiest * 100n >= limit.units * BigInt(LIMIT_LINE_SHARE * 100);
      const spec: ChartSpec = {
        kind: 'bar',
        title: `${wallet}: ${code} out per day`,
        categories,
        yLabel: code,
        series: [
          { name: `${wallet} ${code} out`, values },
          ...(drawn && limit
            ? [
                {
                  name: `${wallet} limit ${limit.label}`,
                  values: perDay.map(() => asNumber(limit.units, decimals)),
                  asLine: true,
                },
              ]
            : []),
        ],
      };
      charts.push({
        spec,
        summary: outflowSummary(report.days, values, span),
        ...(limit && !drawn
          ? {
              limitNote: `${wallet} ${code}: ${formatAmount({ units: busiest, decimals })} of ${limit.label} on the busiest day`,
            }
          : {}),
      });
    }
  }
  return charts;
}
