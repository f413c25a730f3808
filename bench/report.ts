/** The bench's readable output: one table per part, with the floor and the ratio beside Rampart. */
import { STAGE_LABEL, STAGES, type Stage } from './approval-trace.js';
import type { BenchOptions } from './args.js';
import { type AuditReport, auditLines } from './audit-export.js';
import { type BatchCheckReport, batchCheckLines } from './batch-check.js';
import { type BatchRunReport, batchRunLines } from './batch-run.js';
import { type ChartsReport, chartLines } from './charts.js';
import { type ClusterReport, clusterLines } from './cluster-approval.js';
import { type Goal, type GoalResult, goalLines } from './goals.js';
import type { CommandCount } from './redis-commands.js';
import { type RssReport, rssLines } from './rss.js';
import { type ScreeningReport, screeningLines } from './screening.js';
import { type SeriesRunReport, seriesRunLines } from './series-run.js';
import { ms, PERCENTILES, type Percentile, type Summary, table } from './stats.js';

export const TARGET_P50_MS = 20;
export const TARGET_RATIO = 3;

export interface AckReport {
  target: string;
  rampart: Summary & { errors: number; firstError: string | undefined; perSecond: number };
  bare: Summary & { errors: number; firstError: string | undefined; perSecond: number };
  ratio: Record<Percentile, number>;
  answersDelivered: boolean;
}

export interface ApprovalReport {
  mode: string;
  rampart: Summary & { errors: number; firstError: string | undefined };
  clickAck: Summary;
  stages: Record<Stage, Summary>;
  bullmq: Summary;
  ratio: Record<Percentile, number>;
  target: { p50UnderMs: number; p50Met: boolean; withinRatio: number; ratioMet: boolean };
  /** Redis commands per approve click, watched with MONITOR on extra clicks. */
  commands?: CommandCount | undefined;
}

export interface Report {
  date: string;
  machine: { cpu: string; cpus: number; node: string; loadAtStart: number };
  options: BenchOptions;
  ack: AckReport | undefined;
  approval: ApprovalReport | undefined;
  /** The approval pair again on a Rampart started with VELOCITY_LIMITS set. */
  approvalLimits?: ApprovalReport | undefined;
  audit?: AuditReport | undefined;
  cluster?: ClusterReport | undefined;
  batch?: BatchCheckReport | undefined;
  batchRun?: BatchRunReport | undefined;
  screening?: ScreeningReport | undefined;
  series?: SeriesRunReport | undefined;
  /** Peak RSS beside bare Bolt + BullMQ. */
  rss?: RssReport | undefined;
  charts?: ChartsReport | undefined;
  /** The speed and memory goals, each on the median of same-run pairs. */
  goals: Partial<Record<Goal, GoalResult>>;
}

const HEAD = ['', 'p50', 'p95', 'p99', 'max', 'mean'];
const row = (name: string, s: Summary, extra: string[] = []) => [
  name,
  ...PERCENTILES.map((p) => ms(s[p])),
  ms(s.mean),
  ...extra,
];
const ratioRow = (r: Record<Percentile, number>) => ['ratio Rampart/bare', ...PERCENTILES.map((p) => `${ms(r[p])}×`)];

function ackLines(o: BenchOptions, one: AckReport): string[] {
  return [
    `Part 1: slash command ack latency, ms (median round of ${o.rounds}; /rate${o.text ? ` ${o.text}` : ''}; N=${o.n}, ${o.concurrency} in flight, ${o.warmup} warm-up each)`,
    `Rampart at ${one.target}`,
    table(
      [...HEAD, 'req/s', 'errors'],
      [
        row('Rampart', one.rampart, [one.rampart.perSecond.toFixed(0), String(one.rampart.errors)]),
        row('bare Bolt', one.bare, [one.bare.perSecond.toFixed(0), String(one.bare.errors)]),
        ratioRow(one.ratio),
      ],
    ),
    ...(one.answersDelivered ? [] : ['warning: not every /rate answer reached the response URL within 60 s']),
    ...(one.rampart.firstError ? [`first Rampart error: ${one.rampart.firstError}`] : []),
    ...(one.bare.firstError ? [`first bare Bolt error: ${one.bare.firstError}`] : []),
    '',
  ];
}

function approvalLines(o: BenchOptions, two: ApprovalReport, title = 'Part 2'): string[] {
  return [
    `${title}: approve click acked → service receives POST /transfer, ms (median round of ${o.rounds}; M=${o.approvals}, ${two.mode}, ${o.approvalWarmup} warm-up)`,
    table(
      [...HEAD, 'errors'],
      [
        row('Rampart approval', two.rampart, [String(two.rampart.errors)]),
        row('bare BullMQ add→start', two.bullmq, ['0']),
        ratioRow(two.ratio),
        row('(approve click ack)', two.clickAck, ['']),
      ],
    ),
    ...(two.rampart.firstError ? [`first approval error: ${two.rampart.firstError}`] : []),
    '',
    'Where the approval path spends its time, ms (same samples, split by stage)',
    table(
      ['stage', ...HEAD.slice(1)],
      STAGES.map((s) => row(STAGE_LABEL[s], two.stages[s])),
    ),
    '',
    `Target: p50 under ${TARGET_P50_MS} ms: ${two.target.p50Met ? 'met' : 'NOT met'} (${ms(two.rampart.p50)} ms); ` +
      `within ${TARGET_RATIO}× of bare BullMQ: ${two.target.ratioMet ? 'met' : 'NOT met'} (${ms(two.ratio.p50)}×)`,
  ];
}

export function formatReport(report: Report): string {
  const { machine: m } = report;
  return [
    `Rampart bench, ${report.date}; ${m.cpu}, ${m.cpus} CPUs, node ${m.node}; load average ${m.loadAtStart.toFixed(2)} at start`,
    '',
    ...(report.ack ? ackLines(report.options, report.ack) : []),
    ...(report.approval ? approvalLines(report.options, report.approval) : []),
    ...(report.approvalLimits
      ? ['', ...approvalLines(report.options, report.approvalLimits, 'Part 2 with VELOCITY_LIMITS set')]
      : []),
    ...(report.audit ? ['', ...auditLines(report.audit)] : []),
    ...(report.cluster
      ? [
          '',
          ...clusterLines(
            report.cluster,
            report.options.approvals,
            report.options.approvalConcurrency === 1
              ? 'sequential, settled'
              : `${report.options.approvalConcurrency} in flight`,
          ),
        ]
      : []),
    ...(report.batch ? ['', ...batchCheckLines(report.batch)] : []),
    ...(report.batchRun ? ['', ...batchRunLines(report.batchRun)] : []),
    ...(report.screening ? ['', ...screeningLines(report.screening)] : []),
    ...(report.series ? ['', ...seriesRunLines(report.series)] : []),
    ...(report.rss ? ['', ...rssLines(report.rss)] : []),
    ...(report.charts ? ['', ...chartLines(report.charts)] : []),
    ...(Object.keys(report.goals).length > 0
      ? ['', ...goalLines(report.goals, report.approval?.commands, report.approvalLimits?.commands)]
      : []),
  ].join('\n');
}
