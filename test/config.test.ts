import { describe, expect, it } from 'vitest';
import { loadConfig, parseDuration } from '../src/config.js';
import { ConfigError } from '../src/errors.js';

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
    expect(c.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'rampart' });
    expect(c.requestExpiryMs).toBe(24 * 3_600_000);
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
});
