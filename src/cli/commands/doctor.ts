/**
 * `rampart doctor`: one line per check with ✓ or ✗ and the fix; exit 0 only when everything a
 * payment needs is in place (issue 14). Never prints a secret: lines name settings, not values.
 */
import { type Check, type DoctorDeps, doctor } from '../../app/doctor.js';
import { slackProbe } from '../../slack-api/doctor-probe.js';
import type { Command } from '../args.js';
import { positionals } from '../args.js';
import { CliError } from '../problems.js';
import { type OpenedProbe, openRedisProbe } from '../redis-probe.js';

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
      const { config } = ctx;
      let redis: OpenedProbe | undefined;
      const deps: DoctorDeps = {
        config,
        async redis() {
          redis = await openRedisProbe(config.redis);
          return redis.probe;
        },
        service: () => ctx.service(),
        slack: slackProbe(config.slack.botToken, config.slack.apiUrl),
        // Issue 22: warns when fewer approvers hold a passkey than the largest quorum needs. Read
        // through the app, opened here only (a Redis that is down is the Redis line's ✗ above).
        passkeys: async () => {
          const app = await ctx.app();
          return { usableHolders: (now) => app.passkeyHolders(now) };
        },
      };
      let failed = 0;
      try {
        for await (const check of doctor(deps)) {
          if (!check.ok) failed += 1;
          ctx.io.stdout.write(`${checkLine(check)}\n`);
        }
      } finally {
        await redis?.close();
      }
      if (failed > 0) throw new CliError(`${failed} check(s) failed; a payment cannot run until each ✗ is fixed.`);
    };
  },
};
