/** `rampart screening load FILE [--accept-removals]` and `rampart screening status` (docs/screening.md). */
import { basename } from 'node:path';
import { type Command, positionals } from '../args.js';
import { CliError } from '../problems.js';
import { readBytes } from './batch.js';

const DAY_MS = 86_400_000;
const age = (ms: number): string =>
  ms >= DAY_MS ? `${Math.floor(ms / DAY_MS)} day(s)` : `${Math.max(0, Math.floor(ms / 3_600_000))} hour(s)`;

export const screeningLoadCommand: Command = {
  words: ['screening', 'load'],
  args: '<FILE> [--accept-removals]',
  summary: [
    'Load a sanctions list: OFAC\'s sdn.xml (every "Digital Currency Address" of every entry), or a plain',
    '      list (one address a line, or CSV address,chain,source; "# name:" and "# published: YYYY-MM-DD"',
    '      lines name it). An older list, or one dropping addresses the loaded list holds, is refused',
    '      (--accept-removals takes the drop, listing the removed addresses in the screening history).',
  ].join('\n'),
  options: { 'accept-removals': { type: 'boolean' } },
  prepare(input) {
    const [file = ''] = positionals(input, ['<FILE>']);
    const acceptRemovals = input.values['accept-removals'] === true;
    return async (ctx) => {
      const bytes = await readBytes(file);
      const app = await ctx.app();
      const r = await app.screening.load({ bytes, by: 'cli', source: basename(file), acceptRemovals });
      if (r.kind === 'refused') throw new CliError(r.message);
      ctx.answer(r.message, {
        outcome: r.kind,
        ...r.meta,
        ...(r.kind === 'loaded' ? { removed: r.removed } : {}),
      });
    };
  },
};

export const screeningStatusCommand: Command = {
  words: ['screening', 'status'],
  args: '',
  summary:
    'The loaded sanctions list: its name, publication date, SHA-256, count, and how long since it was confirmed.',
  options: {},
  prepare(input) {
    positionals(input, []);
    return async (ctx) => {
      const s = await (await ctx.app()).screening.status();
      const lines = [`SCREENING=${s.mode}`];
      if (!s.meta) lines.push('No sanctions list is loaded: load one with `rampart screening load FILE`.');
      else {
        const m = s.meta;
        lines.push(
          `${s.identity}: ${m.count.toLocaleString('en-US')} addresses, sha256 ${m.sha256}`,
          `loaded by ${m.loadedBy} from ${m.source} at ${new Date(m.loadedAt).toISOString()}`,
          `last confirmed ${age(s.ageMs ?? 0)} ago${s.stale ? ` — older than SCREENING_MAX_AGE (${age(s.maxAgeMs)}): stale` : ''}`,
        );
      }
      if (s.listUrl) lines.push(`refreshed from ${s.listUrl}`);
      ctx.answer(lines.join('\n'), s);
    };
  },
};
