/**
 * `rampart doctor`: one line per check with ✓ or ✗ and the fix; exit 0 only when everything a
 * payment needs is in place. Never prints a secret: lines name settings, not values.
 */
import type { Check } from '../../../app/doctor.js';
import type { Command } from '../args.js';
import { positionals } from '../args.js';
import { CliError } from '../problems.js';

export const checkLine = (c: Check): string =>
  `${c.warn ? '!' : c.ok ? '✓' : '✗'} ${c.text}${c.fix ? ` — fix: ${c.fix}` : ''}`;

export const doctorCommand: Command = {
  words: ['doctor'],
  args: '',
  summary:
    'Checks the configuration, Redis, the service and Slack: one line each, ✓ or ✗ with the fix; exits 0 only when a payment can run.',
  prepare(input) {
    positionals(input, []);
    return async (ctx) => {
      let failed = 0;
      for await (const check of ctx.doctor()) {
        if (!check.ok) failed += 1;
        ctx.io.stdout.write(`${checkLine(check)}\n`);
      }
      if (failed > 0) throw new CliError(`${failed} check(s) failed; a payment cannot run until each ✗ is fixed.`);
    };
  },
};
