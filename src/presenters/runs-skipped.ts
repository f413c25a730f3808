/**
 * A series' skipped runs as its thread says them, from their history entries ("run k: why"):
 * "Run 3 was skipped: why.", or several in one reply after downtime, a line each. Pure.
 */

/** "run 3: why" as the thread says it: "Run 3 was skipped: why." ("… skipped by U123" for a person). */
function runSkippedText(detail: string): string {
  const [run = '', ...why] = detail.split(': ');
  const reason = why.join(': ');
  const Run = `${run.charAt(0).toUpperCase()}${run.slice(1)}`;
  if (reason.startsWith('skipped by ')) return `${Run} was ${reason}.`;
  return `${Run} was skipped${reason ? `: ${reason}` : ''}.`;
}

/** One reply for the runs skipped together: one sentence each, a line each. */
export function runsSkippedText(details: readonly string[]): string {
  const lines = details.map(runSkippedText);
  return lines.length === 1
    ? (lines[0] ?? '')
    : [`${lines.length} runs were skipped:`, ...lines.map((l) => `• ${l}`)].join('\n');
}
