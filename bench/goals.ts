/**
 * The three speed and memory goals, each judged on the median of same-run pairs (Rampart beside its floor,
 * measured one right after the other), printed beside the goal with the Redis commands per click.
 */
import type { CommandCount } from './redis-commands.js';
import { ms } from './stats.js';

export const GOALS = {
  approval: { limit: 3, what: 'approve click → service call p50 ÷ bare BullMQ add → worker start p50' },
  approvalLimits: { limit: 3, what: 'the same approve path with VELOCITY_LIMITS set (ratio to its own bare BullMQ)' },
  ack: { limit: 1.2, what: 'ack p99 ÷ bare Bolt making the same service call' },
  rss: { limit: 1.3, what: 'peak RSS ÷ bare Bolt + BullMQ' },
} as const;
export type Goal = keyof typeof GOALS;

export interface GoalResult {
  /** Rampart ÷ floor of each pair, in the order measured. */
  pairs: number[];
  median: number;
  limit: number;
  met: boolean;
}

export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export function judge(goal: Goal, pairs: readonly number[]): GoalResult {
  const m = median(pairs);
  return { pairs: [...pairs], median: m, limit: GOALS[goal].limit, met: m <= GOALS[goal].limit };
}

const commandLine = (commands: CommandCount, what: string): string => {
  const names = Object.entries(commands.byName)
    .sort((a, b) => b[1] - a[1])
    .map(([n, c]) => `${n} ${c}`)
    .join(', ');
  return `  Redis commands per approve click${what} (median of ${commands.clicks}, MONITOR): ${commands.toCall} from the click to the service call (${names}); ${commands.toReply} to the outcome reply`;
};

export function goalLines(
  goals: Partial<Record<Goal, GoalResult>>,
  commands: CommandCount | undefined,
  withLimits?: CommandCount,
): string[] {
  const lines = ['Goals, median of same-run pairs:'];
  for (const goal of Object.keys(GOALS) as Goal[]) {
    const r = goals[goal];
    const head = `  ${GOALS[goal].what}: goal ≤ ${GOALS[goal].limit}×`;
    lines.push(
      r
        ? `${head}, measured ${ms(r.median)}× (pairs ${r.pairs.map((x) => `${ms(x)}×`).join(', ')}): ${r.met ? 'met' : 'NOT met'}`
        : `${head}: not measured in this run`,
    );
  }
  if (commands) lines.push(commandLine(commands, ''));
  if (withLimits) lines.push(commandLine(withLimits, ' with VELOCITY_LIMITS set'));
  return lines;
}
