/**
 * `npm run bench`: ack latency of slash commands (issue 3) and approval-to-execution latency
 * (issue 4), each beside its floor (a bare Bolt app, a bare BullMQ round trip) in the same run.
 * Everything runs in this process on loopback; Redis keys live under a unique prefix and are
 * removed at the end. Options: see bench/args.ts (--n --concurrency --approvals --json ...).
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { isHelp } from '../src/slack/blocks/usage.js';
import { ackClient, type LoadResult, rateCommandBody, startBareBolt, type Target } from './ack-latency.js';
import { measureApprovals } from './approval-latency.js';
import { STAGES, type Stage } from './approval-trace.js';
import { type BenchOptions, parseBenchArgs } from './args.js';
import { AUDIT_REQUESTS, measureAuditExport } from './audit-export.js';
import { measureBareBullmq } from './bare-bullmq.js';
import { measureBatchCheck } from './batch-check.js';
import { measureBatchRun } from './batch-run.js';
import { measureClusterApprovals } from './cluster-approval.js';
import {
  type AckReport,
  type ApprovalReport,
  formatReport,
  type Report,
  TARGET_P50_MS,
  TARGET_RATIO,
} from './report.js';
import { ratios, type Summary, summarize } from './stats.js';
import { BOT_TOKEN, SIGNING_SECRET, startWorld, type World } from './world.js';

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

/** Rampart answers /rate after the ack; wait for those answers so they do not spill into the next step. */
async function drainResponses(world: World, expected: number): Promise<boolean> {
  // `/rate help` is answered in the ack: nothing follows it.
  if (isHelp(options.text)) return true;
  const deadline = performance.now() + 60_000;
  while (world.fake.callsTo('response_url').length < expected) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const loadSummary = (r: LoadResult) => ({
  ...summarize(r.samples),
  errors: r.errors,
  firstError: r.firstError,
  perSecond: (r.samples.length + r.errors) / (r.wallMs / 1000),
});

async function measureAcks(world: World): Promise<AckReport> {
  const bare = await startBareBolt(SIGNING_SECRET, { apiUrl: world.fake.apiUrl, botToken: BOT_TOKEN });
  const target: Target = options.url
    ? { url: options.url, secret: options.secret ?? '' }
    : { url: world.url, secret: SIGNING_SECRET };
  const body = () => rateCommandBody(world.fake, options.text);
  const rampart = ackClient(target, options.concurrency, body);
  const floor = ackClient({ url: bare.url, secret: SIGNING_SECRET }, options.concurrency, body);
  try {
    progress(`part 1: warming up (${options.warmup} requests each)`);
    let answered = (await rampart.run(options.warmup)).samples.length;
    await floor.run(options.warmup);
    // Bare Bolt first, so Rampart's after-ack work never runs during the floor's measurement.
    let drained = await drainResponses(world, answered);
    progress(`part 1: ${options.n} /rate to bare Bolt, ${options.concurrency} in flight`);
    const bareResult = await floor.run(options.n);
    progress(`part 1: ${options.n} /rate to Rampart at ${target.url}, ${options.concurrency} in flight`);
    const rampartResult = await rampart.run(options.n);
    answered += rampartResult.samples.length;
    drained = (await drainResponses(world, answered)) && drained;
    const r = loadSummary(rampartResult);
    const b = loadSummary(bareResult);
    return { target: target.url, rampart: r, bare: b, ratio: ratios(r, b), answersDelivered: drained };
  } finally {
    await rampart.close();
    await floor.close();
    await bare.close();
  }
}

async function measureApprovalPath(world: World): Promise<ApprovalReport> {
  const sequential = options.approvalConcurrency === 1;
  const mode = sequential ? 'sequential, settled' : `${options.approvalConcurrency} in flight`;
  progress(`part 2: posting ${options.approvalWarmup + options.approvals} requests, then approving them (${mode})`);
  const result = await measureApprovals(world, {
    warmup: options.approvalWarmup,
    measured: options.approvals,
    concurrency: options.approvalConcurrency,
  });
  progress(`part 2: bare BullMQ round trip, ${options.approvals} jobs one at a time`);
  const bullmq = summarize(
    await measureBareBullmq(world.redisUrl, world.prefix, {
      warmup: options.approvalWarmup,
      measured: options.approvals,
    }),
  );
  const rampart = { ...summarize(result.samples), errors: result.errors, firstError: result.firstError };
  return {
    mode,
    rampart,
    clickAck: summarize(result.clickAcks),
    stages: Object.fromEntries(STAGES.map((s) => [s, summarize(result.stages[s])])) as Record<Stage, Summary>,
    bullmq,
    ratio: ratios(rampart, bullmq),
    target: {
      p50UnderMs: TARGET_P50_MS,
      p50Met: rampart.p50 < TARGET_P50_MS,
      withinRatio: TARGET_RATIO,
      ratioMet: rampart.p50 / bullmq.p50 <= TARGET_RATIO,
    },
  };
}

async function main(): Promise<void> {
  // Other work on the machine shows in every figure; the report says how busy it was.
  const loadAtStart = loadavg()[0] ?? 0;
  const world = await startWorld(options.redisUrl);
  try {
    const ack = options.part === 'all' || options.part === 'ack' ? await measureAcks(world) : undefined;
    const approval =
      options.part === 'all' || options.part === 'approval' ? await measureApprovalPath(world) : undefined;
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
    const batchRun =
      options.part === 'all' || options.part === 'batch-run'
        ? await measureBatchRun(options.redisUrl, 500, 5_000, progress)
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
      ack,
      approval,
      audit,
      cluster,
      batch,
      batchRun,
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
