/** `rampart audit export`: the history of every request in a date range, for compliance. */
import { EventEmitter, once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { AUDIT_FORMATS, type AuditFormat } from '../../../audit/format.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import { CliError, UsageError } from '../problems.js';

const DAY_MS = 86_400_000;

/** "2026-11-01" (UTC day) or an ISO date-time; `end` makes a bare day inclusive of its last ms. */
export function parseDate(text: string, option: string, end: boolean): number {
  const t = text.trim();
  const day = /^\d{4}-\d{2}-\d{2}$/.test(t);
  const ms = Date.parse(day ? `${t}T00:00:00Z` : t);
  if (!/^\d{4}-\d{2}-\d{2}/.test(t) || Number.isNaN(ms))
    throw new UsageError(`--${option} "${shorten(text)}" is not a date such as 2026-11-01 or 2026-11-01T09:30:00Z`);
  return day && end ? ms + DAY_MS - 1 : ms;
}

/** Writes and, when the stream's buffer is full, waits for it to drain (memory stays flat). */
async function writeTo(stream: { write(text: string): unknown }, chunk: string): Promise<void> {
  if (stream.write(chunk) === false && stream instanceof EventEmitter) await once(stream, 'drain');
}

export const auditExportCommand: Command = {
  words: ['audit', 'export'],
  args: '[--since DATE] [--until DATE] [--format csv|jsonl] [--out FILE]',
  summary:
    'Every request created in the range (UTC days, inclusive) with its full history, personal data masked; CSV has one row per event. Default: everything, CSV, to stdout.',
  options: {
    since: { type: 'string' },
    until: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
  },
  prepare(input) {
    positionals(input, []);
    const sinceText = stringOption(input, 'since');
    const untilText = stringOption(input, 'until');
    const since = sinceText === undefined ? 0 : parseDate(sinceText, 'since', false);
    const until = untilText === undefined ? Number.MAX_SAFE_INTEGER : parseDate(untilText, 'until', true);
    if (since > until) throw new UsageError('--since is after --until; swap them');
    const format = (stringOption(input, 'format') ?? 'csv').trim().toLowerCase();
    if (!(AUDIT_FORMATS as readonly string[]).includes(format))
      throw new UsageError(`--format "${shorten(format)}" is not one of ${AUDIT_FORMATS.join(', ')}`);
    const out = stringOption(input, 'out');
    if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
    return async (ctx) => {
      const app = await ctx.app();
      let file: WriteStream | undefined;
      if (out !== undefined) {
        file = createWriteStream(out, { flags: 'wx', mode: 0o600 });
        try {
          await once(file, 'open');
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          throw new CliError(
            code === 'EEXIST'
              ? `${out} already exists; choose another --out or remove it first.`
              : `${out} cannot be written (${String(code)}); check the folder and its permissions.`,
          );
        }
      }
      const sink = file;
      const write = (chunk: string) => writeTo(sink ?? ctx.io.stdout, chunk);
      const result = await app.reports.exportAudit(write, { since, until, format: format as AuditFormat });
      if (sink)
        await new Promise<void>((resolve, reject) => sink.end((err?: Error | null) => (err ? reject(err) : resolve())));
      ctx.note(`${result.requests} request(s), ${result.events} event(s) exported${out ? ` to ${out}` : ''}.`);
    };
  },
};
