/**
 * A series' skipped runs as its thread says them, from their skip marks: "Run 3 was skipped by
 * @amara (from the CLI)." or "Run 3 was skipped: why.", several in one reply after downtime, a
 * line each. `name` writes a person (Slack: a mention), `plain` any other text (Slack escapes
 * it). Pure.
 */
import { type SkipMark, skipWords } from '../domain/series.js';

/** One reply for the runs skipped together: one sentence each, a line each. */
export function runsSkippedText(
  marks: readonly SkipMark[],
  name: (user: string) => string = (user) => user,
  plain: (text: string) => string = (text) => text,
): string {
  const lines = marks.map((m) => `Run ${m.k} was ${skipWords(m, name, plain)}.`);
  return lines.length === 1
    ? (lines[0] ?? '')
    : [`${lines.length} runs were skipped:`, ...lines.map((l) => `• ${l}`)].join('\n');
}
