/**
 * `rampart doctor`: one line per check with ✓ or ✗ and the fix; exit 0 only when everything a
 * payment needs is in place (issue 14). Never prints a secret: lines name settings, not values.
 */
import { type Check, type DoctorDeps, doctor, type RedisProbe } from '../../app/doctor.js';
import { slackProbe } from '../../slack-api/doctor-probe.js';
import { closeRedis, openRedis, type RedisClient, redisWhere } from '../../store/redis.js';
import type { Command } from '../args.js';
import { positionals } from '../args.js';
import { CliError } from '../problems.js';

export const checkLine = (c: Check): string =>
  `${c.warn ? '!' : c.ok ? '✓' : '✗'} ${c.text}${c.fix ? ` — fix: ${c.fix}` : ''}`;

function redisProbe(client: RedisClient, where: string): RedisProbe {
  return {
    where,
    info: (section) => client.info(section),
    async saveConfig() {
      try {
        const [, value] = (await client.config('GET', 'save')) as string[];
        return value;
      } catch {
        return undefined; // managed Redis often refuses CONFIG
      }
    },
    clusterInfo: () => client.cluster('INFO') as Promise<string>,
  };
}

export const doctorCommand: Command = {
  words: ['doctor'],
  args: '',
  summary:
    'Checks the configuration, Redis, the service and Slack: one line each, ✓ or ✗ with the fix; exits 0 only when a payment can run.',
  prepare(input) {
    positionals(input, []);
    return async (ctx) => {
      const { config } = ctx;
      let redis: RedisClient | undefined;
      const deps: DoctorDeps = {
        config,
        async redis() {
          redis = await openRedis(config.redis, 'cli');
          return redisProbe(redis, redisWhere(config.redis));
        },
        service: () => ctx.service(),
        slack: slackProbe(config.slack.botToken, config.slack.apiUrl),
        // Issue 22: warns when fewer approvers hold a passkey than the largest quorum needs.
        passkeys: async () => (await ctx.passkeys()).passkeys,
      };
      let failed = 0;
      try {
        for await (const check of doctor(deps)) {
          if (!check.ok) failed += 1;
          ctx.io.stdout.write(`${checkLine(check)}\n`);
        }
      } finally {
        if (redis) await closeRedis(redis);
      }
      if (failed > 0) throw new CliError(`${failed} check(s) failed; a payment cannot run until each ✗ is fixed.`);
    };
  },
};
