/**
 * `npm run bench`: ack latency of slash commands and approval-to-execution latency,
 * each beside its floor (a bare Bolt app, a bare BullMQ round trip) in the same run,
 * and the other parts (audit export, cluster, batches, charts) each beside its goal.
 * Everything runs in this process on loopback; Redis keys live under a unique prefix and are
 * removed at the end. Options: see bench/args.ts (--n --concurrency --approvals --json ...).
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { type BenchOptions, parseBenchArgs } from './args.js';
import { AUDIT_REQUESTS, measureAuditExport } from './audit-export.js';
import { measureBatchCheck } from './batch-check.js';
import { measureBatchRun } from './batch-run.js';
import { measureCharts } from './charts.js';
import { measureClusterApprovals } from './cluster-approval.js';
import type { Goal, GoalResult } from './goals.js';
import { measureAcks, measureApprovalPath, measureApprovalPathWithLimits } from './pairs.js';
import { formatReport, type Report } from './report.js';
import { measureRss } from './rss.js';
import { measureScreening } from './screening.js';
import { measureSeriesRuns } from './series-run.js';
import { startWorld } from './world.js';

function readOptions(): BenchOptions {
  try {
    return parseBenchArgs(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
}

const options = readOptions();
const progress = (text: string) => {
  if (!options.json) process.stderr.write(`${text}\n`);
};

async function main(): Promise<void> {
  // Other work on the machine shows in every figure; the report says how busy it was.
  const loadAtStart = loadavg()[0] ?? 0;
  const world = await startWorld(options.redisUrl);
  try {
    const goals: Partial<Record<Goal, GoalResult>> = {};
    const acks =
      options.part === 'all' || options.part === 'ack' ? await measureAcks(world, options, progress) : undefined;
    if (acks) goals.ack = acks.goal;
    const approvals =
      options.part === 'all' || options.part === 'approval'
        ? await measureApprovalPath(world, options, progress)
        : undefined;
    if (approvals) goals.approval = approvals.goal;
    // How teams run it: the same pair on a Rampart with VELOCITY_LIMITS set (its own world).
    const withLimits =
      options.part === 'all' || options.part === 'approval'
        ? await measureApprovalPathWithLimits(options, progress)
        : undefined;
    if (withLimits) goals.approvalLimits = withLimits.goal;
    const audit =
      options.part === 'all' || options.part === 'audit'
        ? await measureAuditExport(options.redisUrl, AUDIT_REQUESTS, progress)
        : undefined;
    const cluster =
      options.part === 'all' || options.part === 'cluster'
        ? await measureClusterApprovals(
            {
              warmup: options.approvalWarmup,
              measured: options.approvals,
              concurrency: options.approvalConcurrency,
            },
            progress,
          )
        : undefined;
    const batch =
      options.part === 'all' || options.part === 'batch'
        ? await measureBatchCheck(options.redisUrl, 20, progress)
        : undefined;
    const screening =
      options.part === 'all' || options.part === 'screening'
        ? await measureScreening(options.redisUrl, progress)
        : undefined;
    const batchRun =
      options.part === 'all' || options.part === 'batch-run'
        ? await measureBatchRun(options.redisUrl, 500, 5_000, progress)
        : undefined;
    const rss =
      options.part === 'all' || options.part === 'rss'
        ? await measureRss(
            options.redisUrl,
            { n: options.n, concurrency: options.concurrency, rounds: options.rounds },
            progress,
          )
        : undefined;
    if (rss) goals.rss = rss.goal;
    const charts =
      options.part === 'all' || options.part === 'charts' ? await measureCharts(options.redisUrl, progress) : undefined;
    const series =
      options.part === 'all' || options.part === 'series'
        ? await measureSeriesRuns(
            options.redisUrl,
            { warmup: options.approvalWarmup, measured: options.approvals, liveSeries: 1_000 },
            progress,
          )
        : undefined;
    const report: Report = {
      date: new Date().toISOString(),
      machine: {
        cpu: cpus()[0]?.model ?? 'unknown',
        cpus: availableParallelism(),
        node: process.version,
        loadAtStart,
      },
      options,
      ack: acks?.report,
      approval: approvals?.report,
      approvalLimits: withLimits?.report,
      audit,
      cluster,
      batch,
      batchRun,
      screening,
      rss: rss?.report,
      charts,
      series,
      goals,
    };
    process.stdout.write(`${options.json ? JSON.stringify(report) : formatReport(report)}\n`);
  } finally {
    progress('closing');
    await world.close();
  }
}

main().then(
  () => {
    // Everything is closed; anything still holding the loop is a leak, not a reason to hang.
    setTimeout(() => {
      const held = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
      process.stderr.write(`bench: still held after closing by ${held.map((h) => h.constructor.name).join(', ')}\n`);
      process.exit(0);
    }, 3000).unref();
  },
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
