/**
 * `rampart` in-process: arguments → command → exit code. Streams and environment are injected
 * (main.ts passes the process's), so tests call run() directly.
 */

import { describeError } from '../../app/describe-error.js';
import { loadConfig } from '../../config.js';
import { maskUrlCredentials } from '../../domain/url-credentials.js';
import { ConfigError } from '../../errors.js';
import { type Command, matchCommand, parseInput, usageLine } from './args.js';
import { COMMANDS, PASSWORD_REFUSED } from './commands/index.js';
import { createContext, type OpenCliRole } from './context.js';
import { commandHelp, helpText, PROGRAM_USAGE } from './help.js';
import { type CliIo, EXIT } from './io.js';
import { CliError, UsageError } from './problems.js';

/**
 * `open`: what the composition root builds for a command (compose/cli-role.ts). `env` defaults to
 * the process environment, read by loadConfig alone.
 */
export async function run(
  argv: readonly string[],
  io: CliIo,
  open: OpenCliRole,
  env?: Record<string, string | undefined>,
  commands: readonly Command[] = COMMANDS,
): Promise<number> {
  let command: Command | undefined;
  try {
    const userCreate = commands.find((c) => c.words.join(' ') === 'user create');
    if (argv.some((a) => a === '--password' || a.startsWith('--password='))) {
      command = userCreate;
      throw new UsageError(PASSWORD_REFUSED);
    }
    const match = matchCommand(argv, commands);
    if (match.kind === 'help') {
      io.stdout.write(`${match.topic ? commandHelp(match.topic) : helpText(commands)}\n`);
      return EXIT.ok;
    }
    command = match.command;
    const input = parseInput(command, match.rest);
    if (input.help) {
      io.stdout.write(`${commandHelp(command)}\n`);
      return EXIT.ok;
    }
    const work = command.prepare(input);
    const ctx = createContext(loadConfig(env, { receivesSlack: false }), io, input.json, open);
    try {
      await work(ctx);
    } finally {
      await ctx.close();
    }
    return EXIT.ok;
  } catch (err) {
    return report(err, io, command);
  }
}

// A URL's credentials never reach the terminal, whatever error carried them.
const oneLine = (text: string): string => maskUrlCredentials(text.replace(/\s+/g, ' ').trim());

function report(err: unknown, io: CliIo, command: Command | undefined): number {
  if (err instanceof UsageError) {
    const usage = err.usage ?? (command ? usageLine(command) : PROGRAM_USAGE);
    io.stderr.write(`rampart: ${oneLine(err.message)}\nusage: ${usage}\n`);
    return EXIT.usage;
  }
  if (err instanceof ConfigError && command?.words[0] === 'doctor') {
    // doctor's first check: each configuration problem on its own ✗ line.
    for (const p of err.problems)
      io.stdout.write(`✗ configuration: ${oneLine(p)} — fix: see README.md, "Configuration"\n`);
    io.stderr.write('rampart: the configuration does not load, so nothing else could be checked.\n');
    return EXIT.failed;
  }
  const message =
    err instanceof ConfigError
      ? `the configuration has ${err.problems.length} problem(s): ${err.problems.join('; ')} (see README.md, "Configuration")`
      : err instanceof CliError
        ? err.message
        : describeError(err);
  io.stderr.write(`rampart: ${oneLine(message)}\n`);
  return EXIT.failed;
}
