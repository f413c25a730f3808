/**
 * Parts 1 and 2 as same-run pairs: each round measures the floor and Rampart one
 * right after the other; the report keeps the median round's tables and every round's ratio.
 */
import { isHelp } from '../src/adapters/slack/blocks/usage.js';
import { ackClient, type LoadResult, rateCommandBody, startBareBolt, type Target } from './ack-latency.js';
import { measureApprovals } from './approval-latency.js';
import { STAGES, type Stage } from './approval-trace.js';
import type { BenchOptions } from './args.js';
import { measureBareBullmq } from './bare-bullmq.js';
import { type GoalResult, judge } from './goals.js';
import { countApproveCommands } from './redis-commands.js';
import type { AckReport, ApprovalReport } from './report.js';
import { TARGET_P50_MS, TARGET_RATIO } from './report.js';
import { ratios, type Summary, summarize } from './stats.js';
import { BOT_TOKEN, SERVICE_KEY, SIGNING_SECRET, startWorld, type World } from './world.js';

/**
 * VELOCITY_LIMITS as teams set them: the bench wallet's own rules for its asset beside '*' rules,
 * far above what the bench's requests add up to, so no approval is held.
 */
export const BENCH_VELOCITY_LIMITS =
  'treasury:CNGN=100000000/24h,treasury:CNGN=500000000/7d,*:CNGN=1000000/24h,*:USDC=50000/24h';

type Progress = (text: string) => void;

/** Rampart answers /rate after the ack; wait for those answers so they do not spill into the next step. */
async function drainResponses(world: World, text: string, expected: number): Promise<boolean> {
  // `/rate help` is answered in the ack: nothing follows it.
  if (isHelp(text)) return true;
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

/** The round whose ratio is the median one (its tables are printed). */
const medianIndex = (xs: readonly number[]): number =>
  [...xs.keys()].sort((a, b) => (xs[a] as number) - (xs[b] as number))[Math.floor((xs.length - 1) / 2)] ?? 0;

export async function measureAcks(
  world: World,
  options: BenchOptions,
  progress: Progress,
): Promise<{ report: AckReport; goal: GoalResult }> {
  const bare = await startBareBolt(
    SIGNING_SECRET,
    { apiUrl: world.fake.apiUrl, botToken: BOT_TOKEN },
    { url: world.sandbox.url, apiKey: SERVICE_KEY },
  );
  const target: Target = options.url
    ? { url: options.url, secret: options.secret ?? '' }
    : { url: world.url, secret: SIGNING_SECRET };
  const body = () => rateCommandBody(world.fake, options.text);
  const rampart = ackClient(target, options.concurrency, body);
  const floor = ackClient({ url: bare.url, secret: SIGNING_SECRET }, options.concurrency, body);
  try {
    progress(`part 1: warming up (${options.warmup} requests each)`);
    let answered = (await rampart.run(options.warmup)).samples.length;
    answered += (await floor.run(options.warmup)).samples.length;
    let drained = await drainResponses(world, options.text, answered);
    const rounds: AckReport[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      // Bare Bolt first, so Rampart's after-ack work never runs during the floor's measurement.
      progress(`part 1, round ${round}/${options.rounds}: ${options.n} /rate to bare Bolt, then to Rampart`);
      const bareResult = await floor.run(options.n);
      answered += bareResult.samples.length;
      drained = (await drainResponses(world, options.text, answered)) && drained;
      const rampartResult = await rampart.run(options.n);
      answered += rampartResult.samples.length;
      drained = (await drainResponses(world, options.text, answered)) && drained;
      const r = loadSummary(rampartResult);
      const b = loadSummary(bareResult);
      rounds.push({ target: target.url, rampart: r, bare: b, ratio: ratios(r, b), answersDelivered: drained });
    }
    const p99s = rounds.map((r) => r.ratio.p99);
    return { report: rounds[medianIndex(p99s)] as AckReport, goal: judge('ack', p99s) };
  } finally {
    await rampart.close();
    await floor.close();
    await bare.close();
  }
}

export async function measureApprovalPath(
  world: World,
  options: BenchOptions,
  progress: Progress,
  goal: 'approval' | 'approvalLimits' = 'approval',
): Promise<{ report: ApprovalReport; goal: GoalResult }> {
  const part = goal === 'approval' ? 'part 2' : 'part 2 with VELOCITY_LIMITS';
  const sequential = options.approvalConcurrency === 1;
  const mode = sequential ? 'sequential, settled' : `${options.approvalConcurrency} in flight`;
  const perRound = options.approvalWarmup + options.approvals;
  const rounds: ApprovalReport[] = [];
  for (let round = 0; round < options.rounds; round++) {
    progress(
      `${part}, round ${round + 1}/${options.rounds}: ${perRound} requests approved (${mode}), then bare BullMQ`,
    );
    const result = await measureApprovals(world, {
      warmup: options.approvalWarmup,
      measured: options.approvals,
      concurrency: options.approvalConcurrency,
      base: round * perRound,
    });
    const bullmq = summarize(
      await measureBareBullmq(world.redisUrl, world.prefix, {
        warmup: options.approvalWarmup,
        measured: options.approvals,
      }),
    );
    const rampart = { ...summarize(result.samples), errors: result.errors, firstError: result.firstError };
    rounds.push({
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
    });
  }
  const p50s = rounds.map((r) => r.ratio.p50);
  const report = rounds[medianIndex(p50s)] as ApprovalReport;
  if (options.traceClicks > 0) {
    progress(`${part}: ${options.traceClicks} more approvals watched with MONITOR (Redis commands per click)`);
    report.commands = await countApproveCommands(world, options.traceClicks, options.rounds * perRound);
  }
  return { report, goal: judge(goal, p50s) };
}

/** The same pair on a Rampart started with VELOCITY_LIMITS set: the vote also checks the ledger. */
export async function measureApprovalPathWithLimits(
  options: BenchOptions,
  progress: Progress,
): Promise<{ report: ApprovalReport; goal: GoalResult }> {
  const world = await startWorld(options.redisUrl, undefined, { VELOCITY_LIMITS: BENCH_VELOCITY_LIMITS });
  try {
    return await measureApprovalPath(world, options, progress, 'approvalLimits');
  } finally {
    await world.close();
  }
}
