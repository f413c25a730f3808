/**
 * What a series' thread says when its runs are skipped or it ends, from stored facts: "Run 3 was
 * skipped by @amara (from the CLI)." or "Run 3 was skipped: why.", several in one reply after
 * downtime, a line each; "S-12 ended by @amara (from the CLI); run 4 (R-44) cancelled, nothing
 * sent. No more runs will be created." `name` writes a person (Slack: a mention, never a bare id),
 * `plain` any other text (Slack escapes it). Pure.
 */
import { type SkipMark, skipWords } from '../domain/series.js';

/** One reply in a series' thread: runs skipped together, or the series ended (by whom, the run it cancelled). */
export type SeriesReply =
  | { kind: 'runs-skipped'; runs: readonly SkipMark[] }
  | {
      kind: 'ended';
      seriesId: string;
      /** A person, or 'rampart' (it ended after its last run). */
      by: string | undefined;
      /** The door a person used ("from the CLI"), or Rampart's reason. */
      detail: string | undefined;
      cancelled: { k: string; id: string } | undefined;
    };

type Words = { name?: (user: string) => string; plain?: (text: string) => string };

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

/** The thread's reply, either kind. */
export function seriesReplyText(reply: SeriesReply, words: Words = {}): string {
  const name = words.name ?? ((user: string) => user);
  const plain = words.plain ?? ((text: string) => text);
  if (reply.kind === 'runs-skipped') return runsSkippedText(reply.runs, name, plain);
  const { by, detail, cancelled } = reply;
  const who = by && by !== 'rampart' ? ` by ${name(by)}` : '';
  const why = detail ? plain(` (${detail})`) : '';
  const run = cancelled ? plain(`; run ${cancelled.k} (${cancelled.id}) cancelled, nothing sent`) : '';
  return `${plain(reply.seriesId)} ended${who}${why}${run}. No more runs will be created.`;
}
