import { describe, expect, it } from 'vitest';
import { DEV_DEFAULTS, hashTagged, loadConfig, parseDuration, secretsOf } from '../../src/config.js';
import { sealSchedule } from '../../src/domain/schedule.js';
import { ConfigError } from '../../src/errors.js';

const prod = {
  NODE_ENV: 'production',
  SERVICE_BASE_URL: 'https://wallet.example.com',
  SERVICE_API_KEY: 'sk_live_very_secret_value',
  SLACK_BOT_TOKEN: 'xoxb-1-2-secret',
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  WALLETS: 'ops=wal_1,treasury=wal_2',
  APPROVALS_CHANNEL: 'C0123ABCD',
  APPROVERS: 'U012AB,S0GROUP1',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('configuration', () => {
  it('starts on a fresh machine with nothing set (sandbox defaults, development)', () => {
    const c = loadConfig({});
    expect(c.service.baseUrl).toBeUndefined();
    expect(c.wallets[0]?.alias).toBe('ops');
    expect(c.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'rampart', waitMs: 500 });
    expect(c.requestExpiryMs).toBe(24 * 3_600_000);
  });

  it('REDIS_CLUSTER_NODES selects the cluster and hash-tags a plain prefix; one server keeps its keys as they were', () => {
    const c = loadConfig({ REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis-b.internal:7001 ', REDIS_PREFIX: 'acc-1234' });
    expect(c.redis.clusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b.internal', port: 7001 },
    ]);
    expect(c.redis.prefix).toBe('{acc-1234}');
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_PREFIX: '{acc}' }).redis.prefix).toBe('{acc}');
    expect(loadConfig({ REDIS_PREFIX: 'acc-1234' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'acc-1234',
      clusterNodes: undefined,
      waitMs: 500,
    });
    expect(problemsOf({ REDIS_CLUSTER_NODES: '10.0.0.1,10.0.0.2:99999' })).toEqual([
      'REDIS_CLUSTER_NODES "10.0.0.1" is not host:port, e.g. 10.0.0.1:7000',
      'REDIS_CLUSTER_NODES "10.0.0.2:99999" is not host:port, e.g. 10.0.0.1:7000',
    ]);
  });

  it('hash tags follow Redis: the first { and the next } with something between', () => {
    expect(hashTagged('rampart')).toBe('{rampart}');
    expect(hashTagged('a{b}c')).toBe('a{b}c');
    expect(hashTagged('a{}b')).toBe('{a{}b}');
    expect(hashTagged('a}b{')).toBe('{a}b{}');
  });

  it('parses a full production configuration', () => {
    const c = loadConfig({ ...prod, TWO_APPROVALS_ABOVE: 'USDC=10000, cngn=15000000', REQUEST_EXPIRY: '2h' });
    expect(c.wallets).toEqual([
      { alias: 'ops', id: 'wal_1' },
      { alias: 'treasury', id: 'wal_2' },
    ]);
    expect(c.policy.twoApprovalsAbove).toEqual({ USDC: '10000', CNGN: '15000000' });
    expect(c.approvers).toEqual(['U012AB', 'S0GROUP1']);
    expect(c.requestExpiryMs).toBe(7_200_000);
  });

  it('lists every problem at once, by name, in one message', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      PORT: 'abc',
      WALLETS: 'ops',
      APPROVERS: 'bob',
      APPROVALS_CHANNEL: '#treasury',
      REQUEST_EXPIRY: 'soon',
    });
    const text = problems.join('\n');
    for (const name of [
      'PORT',
      'WALLETS',
      'APPROVERS',
      'APPROVALS_CHANNEL',
      'REQUEST_EXPIRY',
      'SERVICE_BASE_URL',
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('reads REDIS_WAIT_MS (default 500) and refuses anything but 1–10000 ms in one sentence', () => {
    expect(loadConfig(prod).redis.waitMs).toBe(500);
    expect(loadConfig({ ...prod, REDIS_WAIT_MS: '1200' }).redis.waitMs).toBe(1200);
    for (const bad of ['0', '-5', '2s', '10001', 'soon'])
      expect(problemsOf({ ...prod, REDIS_WAIT_MS: bad })).toEqual([
        'REDIS_WAIT_MS must be a whole number of milliseconds from 1 to 10000, such as 500',
      ]);
  });

  it('never echoes a secret value in its message', () => {
    let message = '';
    try {
      loadConfig({ ...prod, SLACK_BOT_TOKEN: 'xoxp-user-token-secret', SERVICE_BASE_URL: 'not a url' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('SLACK_BOT_TOKEN');
    expect(message).not.toContain('xoxp-user-token-secret');
    expect(message).not.toContain(prod.SERVICE_API_KEY);
  });

  it('refuses a missing SERVICE_BASE_URL in production (the sandbox is for development)', () => {
    const { SERVICE_BASE_URL: _, ...rest } = prod;
    expect(problemsOf(rest).join()).toContain('SERVICE_BASE_URL is required in production');
  });

  it('reads durations', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('2 weeks')).toBeUndefined();
  });

  it('reads TWO_APPROVALS_ABOVE=0 as two approvals for every amount', () => {
    expect(loadConfig({ ...prod, TWO_APPROVALS_ABOVE: '0' }).policy.twoApprovalsAbove).toEqual({ '*': '0' });
  });

  it('refuses a threshold finer than its asset, an unknown asset code, or a number too large, naming each', () => {
    const problems = problemsOf({ ...prod, TWO_APPROVALS_ABOVE: 'USDC=10.1234567,DOGE=5,USDT=1e5' }).join('\n');
    expect(problems).toContain('TWO_APPROVALS_ABOVE USDC: 10.1234567 has 7 decimal places; the asset has only 6');
    expect(problems).toContain('TWO_APPROVALS_ABOVE names DOGE, which is not an asset code Rampart knows');
    expect(problems).toContain('"USDT=1e5" is not a number or CODE=number');
    expect(problemsOf({ ...prod, TWO_APPROVALS_ABOVE: '0.0000001' }).join()).toContain('7 decimal places');
    expect(problemsOf({ ...prod, TWO_APPROVALS_ABOVE: '10000000000000000' }).join()).toContain(
      'larger than any amount',
    );
    expect(problemsOf({ ...prod, TWO_APPROVALS_ABOVE: 'cngn=15000000.5' })).toEqual([]);
  });

  describe('development defaults', () => {
    const real = { SERVICE_BASE_URL: 'https://wallet.example.com', SERVICE_API_KEY: 'k' };

    it('are used only when nothing real is configured', () => {
      expect(loadConfig({}).slack.signingSecret).toBe(DEV_DEFAULTS.signingSecret);
      expect(loadConfig({ NODE_ENV: 'test' }).slack.botToken).toBe(DEV_DEFAULTS.botToken);
    });

    it('stop start-up when a service URL or a bot token is set without the Slack secret, whatever NODE_ENV says', () => {
      for (const NODE_ENV of [undefined, 'development', 'test']) {
        const env = NODE_ENV ? { NODE_ENV } : {};
        expect(problemsOf({ ...env, ...real })).toEqual([
          'SLACK_SIGNING_SECRET is required when SLACK_BOT_TOKEN or SERVICE_BASE_URL is set (the development default is public)',
          'SLACK_BOT_TOKEN is required when SLACK_BOT_TOKEN or SERVICE_BASE_URL is set (the development default is public)',
        ]);
        expect(problemsOf({ ...env, SLACK_BOT_TOKEN: 'xoxb-real' })).toEqual([
          'SLACK_SIGNING_SECRET is required when SLACK_BOT_TOKEN or SERVICE_BASE_URL is set (the development default is public)',
        ]);
      }
    });

    it('refuse the public development secret given explicitly with real credentials', () => {
      const env = { ...real, SLACK_BOT_TOKEN: 'xoxb-real', SLACK_SIGNING_SECRET: DEV_DEFAULTS.signingSecret };
      expect(problemsOf(env).join()).toContain('SLACK_SIGNING_SECRET is the public development secret');
      expect(problemsOf({ ...prod, SLACK_SIGNING_SECRET: DEV_DEFAULTS.signingSecret }).join()).toContain(
        'public development secret',
      );
    });

    it('are allowed under npm run dev, and for the CLI, which receives no Slack requests', () => {
      expect(loadConfig(real, { development: true }).slack.signingSecret).toBe(DEV_DEFAULTS.signingSecret);
      expect(loadConfig(real, { receivesSlack: false }).service.baseUrl).toBe(real.SERVICE_BASE_URL);
    });
  });

  it('refuses a plain-http SERVICE_BASE_URL in production, except to this machine', () => {
    expect(problemsOf({ ...prod, SERVICE_BASE_URL: 'http://wallet.example.com' })).toEqual([
      'SERVICE_BASE_URL must be an https:// URL in production (plain http only to 127.0.0.1 or localhost)',
    ]);
    for (const url of ['http://127.0.0.1:4010', 'http://localhost:8080/api', 'http://[::1]:9000'])
      expect(problemsOf({ ...prod, SERVICE_BASE_URL: url })).toEqual([]);
    expect(
      problemsOf({
        NODE_ENV: 'test',
        SERVICE_BASE_URL: 'http://wallet.internal',
        SERVICE_API_KEY: 'k',
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 's',
      }),
    ).toEqual([]);
  });

  it('checks SLACK_TEAM_ID and SLACK_ENTERPRISE_ID are ids', () => {
    const c = loadConfig({ ...prod, SLACK_TEAM_ID: 'T0123ABCD', SLACK_ENTERPRISE_ID: 'E0123ABCD' });
    expect(c.slack).toMatchObject({ teamId: 'T0123ABCD', enterpriseId: 'E0123ABCD' });
    const problems = problemsOf({ ...prod, SLACK_TEAM_ID: 'my-team', SLACK_ENTERPRISE_ID: 'T0123' }).join('\n');
    expect(problems).toContain('SLACK_TEAM_ID must be a workspace id');
    expect(problems).toContain('SLACK_ENTERPRISE_ID must be an Enterprise Grid id');
  });
});

describe('secrets to mask in text from outside', () => {
  it('lists every configured secret: service, Slack, metrics token, audit secret, Redis password', () => {
    const secrets = {
      SERVICE_BEARER_TOKEN: 'bearer-token-value',
      METRICS_TOKEN: 'metrics-token-value',
      AUDIT_WEBHOOK_SECRET: 'audit-webhook-secret-value',
    };
    const redisUrl = 'rediss://rampart:redis%2Fpass-value@redis.example.com:6380';
    const c = loadConfig({
      ...prod,
      ...secrets,
      AUDIT_WEBHOOK_URL: 'https://audit.example.com/rampart',
      REDIS_URL: redisUrl,
    });
    const { SERVICE_API_KEY, SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET } = prod;
    expect(secretsOf(c).sort()).toEqual(
      [SERVICE_API_KEY, SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, ...Object.values(secrets), 'redis/pass-value'].sort(),
    );
  });
});

describe('treasury controls settings', () => {
  it('parses velocity limits, reminders and escalation', () => {
    const c = loadConfig({
      ...prod,
      VELOCITY_LIMITS: 'ops:USDC=50000/24h,*:CNGN=75000000/24h',
      REMINDER_AFTER: '1s',
      REMINDER_MAX: '2',
      ESCALATE_AFTER: '2h',
      ESCALATE_TO: 'U0BOSS,S0LEADS',
    });
    expect(c.controls.velocity.map((r) => r.text)).toEqual(['ops:USDC=50000/24h', '*:CNGN=75000000/24h']);
    expect(c.controls).toMatchObject({
      reminderAfterMs: 1000,
      reminderMax: 2,
      escalateAfterMs: 7_200_000,
      escalateTo: ['U0BOSS', 'S0LEADS'],
    });
    expect(loadConfig({}).controls).toMatchObject({ reminderAfterMs: 1_800_000, reminderMax: 3 });
    expect(loadConfig({ REMINDER_AFTER: 'off' }).controls.reminderAfterMs).toBeUndefined();
  });

  it('refuses a bad limit, reminder or escalation at start-up, each in one sentence', () => {
    expect(
      problemsOf({
        ...prod,
        VELOCITY_LIMITS: 'ghost:USDC=1/24h,ops:USDC=0/24h',
        REMINDER_AFTER: 'sometimes',
        REMINDER_MAX: '0',
        ESCALATE_TO: 'bob',
      }),
    ).toEqual([
      'VELOCITY_LIMITS "ghost:USDC=1/24h" names wallet "ghost", which is not in WALLETS',
      'VELOCITY_LIMITS "ops:USDC=0/24h": The amount must be more than zero.',
      'REMINDER_AFTER must be a duration such as 30m or 2h, or off',
      'REMINDER_MAX must be a whole number from 1 to 20',
      'ESCALATE_AFTER must be set when ESCALATE_TO is',
      'ESCALATE_TO "bob" is not a Slack user id (U…/W…) or user group id (S…)',
    ]);
  });

  it('reads BATCH_MAX_ROWS (default 1,000) and refuses anything but 1 to 5,000 in one sentence', () => {
    expect(loadConfig({}).batch.maxRows).toBe(1000);
    expect(loadConfig({ BATCH_MAX_ROWS: '5000' }).batch.maxRows).toBe(5000);
    expect(loadConfig({ BATCH_MAX_ROWS: '2,500' }).batch.maxRows).toBe(2500);
    for (const bad of ['5001', '0', 'many', '1.5', '-3'])
      expect(problemsOf({ BATCH_MAX_ROWS: bad })).toEqual([
        'BATCH_MAX_ROWS must be a whole number from 1 to 5000 (default 1000)',
      ]);
  });

  it('reads SCHEDULE_MIN_INTERVAL (default 1d), SCHEDULE_MAX_RUNS (default 60), SCHEDULE_GRACE (default 1h) and SCHEDULE_NOTICE (default 24h), refusing each in one sentence', () => {
    expect(loadConfig({}).series).toEqual({
      minIntervalMs: 86_400_000,
      maxRuns: 60,
      graceMs: 3_600_000,
      noticeMs: 86_400_000,
    });
    expect(
      loadConfig({ SCHEDULE_MIN_INTERVAL: '1m', SCHEDULE_MAX_RUNS: '3', SCHEDULE_GRACE: '5m', SCHEDULE_NOTICE: '2h' })
        .series,
    ).toEqual({ minIntervalMs: 60_000, maxRuns: 3, graceMs: 300_000, noticeMs: 7_200_000 });
    expect(
      problemsOf({
        SCHEDULE_MIN_INTERVAL: 'daily',
        SCHEDULE_MAX_RUNS: '1',
        SCHEDULE_GRACE: 'an hour',
        SCHEDULE_NOTICE: '0s',
      }),
    ).toEqual([
      'SCHEDULE_MIN_INTERVAL must be a duration such as 30s, 15m, 24h or 2d',
      'SCHEDULE_MAX_RUNS must be at least 2',
      'SCHEDULE_GRACE must be a duration such as 30s, 15m, 24h or 2d',
      'SCHEDULE_NOTICE must be a duration such as 30s, 15m, 24h or 2d',
    ]);
  });

  it('SCHEDULE_MAX_AHEAD defaults to 400 days: a monthly series of 12 runs passes, one of 15 does not', () => {
    const config = loadConfig({});
    expect(config.time.maxAheadMs).toBe(400 * 86_400_000);
    const limits = { ...config.series, maxAheadMs: config.time.maxAheadMs };
    const now = Date.UTC(2026, 10, 29, 12);
    const monthly = (after: number) =>
      sealSchedule(
        { every: { unit: 'month', day: 31 }, at: '09:00', zone: 'Africa/Lagos', ends: { after } },
        limits,
        now,
      );
    expect(monthly(12)).toMatchObject({ ok: true });
    expect(monthly(13)).toMatchObject({ ok: true });
    expect(monthly(15)).toMatchObject({ ok: false, code: 'schedule_too_far' });
  });
});
