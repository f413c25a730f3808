/** `rampart report --since 30d --format csv|json`: the treasury report from stored records. */
import type { ReportView } from '../../../app/report.js';
import { amountToString } from '../../../domain/amount.js';
import type { Payment } from '../../../domain/report.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import { UsageError } from '../problems.js';

const FORMATS = ['csv', 'json'] as const;
/** The lookback for "paid for the first time" is 90 days, so a report spans at most as long. */
const MAX_DAYS = 90;

const payment = (p: Payment) => ({
  id: p.id,
  kind: p.kind,
  state: p.state,
  wallet: p.wallet,
  asset: p.code,
  amount: amountToString({ units: p.units, decimals: p.decimals }),
  destination: p.destination,
  at: new Date(p.at).toISOString(),
  approvalSeconds: p.approvalMs === undefined ? null : Math.round(p.approvalMs / 1000),
  ...(p.run ? { series: p.run.series, run: p.run.k } : {}),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** The report as plain JSON (amounts as exact decimal strings). */
export function reportJson(view: ReportView): unknown {
  const { report } = view;
  return {
    since: new Date(report.window.since).toISOString(),
    until: new Date(report.window.until).toISOString(),
    zone: report.window.zone,
    days: report.days,
    outflowPerDay: Object.fromEntries(
      Object.entries(report.outflow).map(([code, s]) => [
        code,
        s.perDay.map((units) => amountToString({ units, decimals: s.decimals })),
      ]),
    ),
    totals: report.totals,
    largest: report.largest.map(payment),
    firstTime: report.firstTime.map(payment),
    approval: report.approval
      ? {
          medianSeconds: Math.round(report.approval.median / 1000),
          slowestSeconds: Math.round(report.approval.slowest / 1000),
          count: report.approval.count,
        }
      : null,
    unresolvedUnknown: report.unresolved.map(payment),
    series: report.series.map((l) => ({
      id: l.id,
      state: l.state,
      schedule: l.schedule ?? null,
      runs: l.runs.map((r) => ({ ...r, at: iso(r.at) })),
      skipped: l.skipped.map((r) => ({ ...r, at: iso(r.at), by: r.by ?? null })),
      ended: l.ended ? { at: iso(l.ended.at), by: l.ended.by ?? null } : null,
    })),
    payments: view.payments.map(payment),
  };
}

export const reportCommand: Command = {
  words: ['report'],
  args: '[--since 7d|30d] [--format csv|json]',
  summary:
    'The treasury report from Rampart’s records (no service call): every payment of the last days as CSV (default), or the whole report as JSON. Default: 7 days.',
  options: { since: { type: 'string' }, format: { type: 'string' } },
  prepare(input) {
    positionals(input, []);
    const sinceText = (stringOption(input, 'since') ?? '7d').trim().toLowerCase();
    const m = /^(\d{1,3})d$/.exec(sinceText);
    const days = m ? Number(m[1]) : Number.NaN;
    if (!(days >= 1 && days <= MAX_DAYS))
      throw new UsageError(
        `--since "${shorten(sinceText)}" is not a number of days from 1d to ${MAX_DAYS}d, such as 30d`,
      );
    const format = (stringOption(input, 'format') ?? 'csv').trim().toLowerCase();
    if (!(FORMATS as readonly string[]).includes(format))
      throw new UsageError(`--format "${shorten(format)}" is not one of ${FORMATS.join(', ')}`);
    return async (ctx) => {
      const view = await (await ctx.app()).reports.report(days);
      if (format === 'json') ctx.io.stdout.write(`${JSON.stringify(reportJson(view), null, 2)}\n`);
      else ctx.io.stdout.write(view.csv);
      ctx.note(`${view.payments.length} payment(s) in the last ${days} day(s).`);
    };
  },
};
