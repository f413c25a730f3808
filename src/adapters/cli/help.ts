/** The help text: pure, built from the command list so it cannot fall behind it. */
import { type Command, usageLine } from './args.js';

export const PROGRAM_USAGE = 'rampart <command> [arguments] [--json]   (rampart help lists the commands)';

export function helpText(commands: readonly Command[]): string {
  return [
    'rampart: the wallet service and Rampart’s requests, from a terminal.',
    '',
    'Usage:',
    ...commands.flatMap((c) => [`  ${usageLine(c).replace(/ \[--json\]$/, '')}`, `      ${c.summary}`]),
    '  rampart help [command]',
    '      This text, or one command’s usage (also --help or -h after the command).',
    '',
    'Every command takes --json: JSON for scripts instead of tables.',
    '',
    'Settings come from the same environment as Rampart (SERVICE_BASE_URL, SERVICE_API_KEY,',
    'SERVICE_BEARER_TOKEN, WALLETS, REDIS_URL, REDIS_PREFIX). Without SERVICE_BASE_URL the built-in',
    'sandbox answers (never in production). A wallet is named by its WALLETS alias or its id.',
    '',
    'Exit codes: 0 done; 1 failed (one line on stderr); 2 bad arguments (with the usage line).',
  ].join('\n');
}

export const commandHelp = (c: Command): string => `usage: ${usageLine(c)}\n${c.summary}`;
