/**
 * Commands as data, and their arguments through node:util parseArgs. A command validates its
 * arguments in prepare() (bad ones: UsageError, exit 2) before anything is opened.
 */
import { parseArgs } from 'node:util';
import type { Context } from './context.js';
import { UsageError } from './problems.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

export interface Input {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
  json: boolean;
  help: boolean;
}

export interface Command {
  /** ['identity', 'get'] for `rampart identity get`. */
  words: readonly string[];
  /** What follows the words in the usage line, e.g. `<bank_code> <account_number>`. */
  args: string;
  summary: string;
  options?: Record<string, OptionSpec>;
  /** Checks the arguments and returns the work to do; throws UsageError on bad ones. */
  prepare(input: Input): (ctx: Context) => Promise<void>;
}

export const usageLine = (c: Command): string => `rampart ${[...c.words, c.args].filter(Boolean).join(' ')} [--json]`;

const GLOBAL_OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** parseArgs' own messages go on with advice about '--'; the first sentence is the point. */
const firstSentence = (err: unknown): string => {
  const first = (err instanceof Error ? err.message : String(err)).split(/\.\s/)[0]?.replace(/\.$/, '') ?? '';
  return first === '' ? 'bad arguments' : first.charAt(0).toLowerCase() + first.slice(1);
};

export function parseInput(command: Command, args: readonly string[]): Input {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(firstSentence(err));
  }
  const values: Input['values'] = {};
  for (const [key, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' || typeof value === 'boolean') values[key] = value;
  }
  return { positionals: parsed.positionals, values, json: values.json === true, help: values.help === true };
}

/** The positionals by name: all of `required`, then up to `optional.length` more. */
export function positionals(input: Input, required: readonly string[], optional: readonly string[] = []): string[] {
  const given = input.positionals;
  const missing = required[given.length];
  if (missing !== undefined) throw new UsageError(`missing ${missing}`);
  const extra = given[required.length + optional.length];
  if (extra !== undefined) throw new UsageError(`unexpected argument "${shorten(extra)}"`);
  return given;
}

export function stringOption(input: Input, name: string, required: true): string;
export function stringOption(input: Input, name: string, required?: false): string | undefined;
export function stringOption(input: Input, name: string, required = false): string | undefined {
  const value = input.values[name];
  const text = typeof value === 'string' ? value : undefined;
  if (required && (text === undefined || text.trim() === '')) throw new UsageError(`missing --${name}`);
  return text;
}

/** Echoed input stays short and on one line. */
export const shorten = (text: string): string => {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
};

export type Match = { kind: 'help'; topic: Command | undefined } | { kind: 'run'; command: Command; rest: string[] };

const LEADING = new Set(['--json', '--help', '-h']);

/** Finds the command named by the leading words; global flags may come before them. */
export function matchCommand(argv: readonly string[], commands: readonly Command[]): Match {
  let i = 0;
  while (i < argv.length && LEADING.has(argv[i] ?? '')) i++;
  const lead = argv.slice(0, i);
  const first = argv[i];
  if (first === undefined) {
    if (lead.includes('--help') || lead.includes('-h')) return { kind: 'help', topic: undefined };
    throw new UsageError('no command given');
  }
  if (first === 'help') {
    const words = argv.slice(i + 1).filter((w) => !w.startsWith('-'));
    const topic =
      commands.find((c) => c.words.join(' ') === words.join(' ')) ?? commands.find((c) => c.words[0] === words[0]);
    return { kind: 'help', topic };
  }
  const family = commands.filter((c) => c.words[0] === first);
  if (family.length === 0) throw new UsageError(`unknown command "${shorten(first)}"`);
  const second = argv[i + 1];
  const command =
    family.find((c) => c.words.length === 2 && c.words[1] === second) ?? family.find((c) => c.words.length === 1);
  if (!command) {
    const subs = family.map((c) => c.words[1]).join(', ');
    const problem =
      second === undefined || second.startsWith('-')
        ? `"${first}" needs one of: ${subs}`
        : `unknown command "${first} ${shorten(second)}"`;
    throw new UsageError(problem, family.map(usageLine).join('\n       '));
  }
  return { kind: 'run', command, rest: [...lead, ...argv.slice(i + command.words.length)] };
}
