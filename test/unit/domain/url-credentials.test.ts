/** URL credentials are masked in every text Rampart writes. */
import { describe, expect, it } from 'vitest';
import { loadConfig, secretsOf } from '../../../src/config.js';
import { maskUrlCredentials, urlCredentials } from '../../../src/domain/url-credentials.js';
import { ConfigError } from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { LogSink } from '../../support/log-sink.js';

const SECRET = 'S3CRET-in-the-url';

describe('URL credentials', () => {
  it('are masked wherever a URL sits in a text, and nothing else changes', () => {
    expect(maskUrlCredentials(`GET https://ops:${SECRET}@wallet.example.com/wallet failed`)).toBe(
      'GET https://[redacted]@wallet.example.com/wallet failed',
    );
    expect(maskUrlCredentials(`a http://ops@h/x and redis://:${SECRET}@r:6379/0`)).toBe(
      'a http://[redacted]@h/x and redis://[redacted]@r:6379/0',
    );
    expect(maskUrlCredentials('mail ops@example.com at https://h/p?u=a@b')).toBe(
      'mail ops@example.com at https://h/p?u=a@b',
    );
    expect(urlCredentials(`https://ops:${SECRET}@h`)).toEqual([SECRET, 'ops']);
  });

  it('never reach a log line, in an error or a url field', () => {
    const sink = new LogSink();
    const log = createLogger({ level: 'info' }, sink);
    log.error({ err: new Error(`connect to https://ops:${SECRET}@h failed`), url: `https://ops:${SECRET}@h/x` }, 'x');
    expect(sink.text).not.toContain(SECRET);
    expect(sink.text).toContain('https://[redacted]@h');
  });

  it('are secrets masked in outside text, from every configured URL', () => {
    const c = loadConfig({
      SERVICE_BASE_URL: `https://ops:${SECRET}@wallet.example.com`,
      SERVICE_API_KEY: 'k',
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 'a-signing-secret-1',
    });
    expect(secretsOf(c)).toContain(SECRET);
  });

  it.each(['htps://wallet.example.com', 'https:/wallet.example.com', 'ftp://wallet.example.com', 'wallet.example.com'])(
    'a malformed scheme (%s) is refused at start-up with one sentence naming the variable',
    (url) => {
      let problems: readonly string[] = [];
      try {
        loadConfig({
          SERVICE_BASE_URL: url,
          AUDIT_WEBHOOK_URL: url.replace('wallet', `ops:${SECRET}@audit`),
          AUDIT_WEBHOOK_SECRET: 'sixteen-characters-at-least',
        });
      } catch (err) {
        if (err instanceof ConfigError) problems = err.problems;
      }
      expect(problems).toContain(
        'SERVICE_BASE_URL must be an http:// or https:// URL such as https://wallet.example.com; correct the scheme and address',
      );
      expect(problems.join('\n')).not.toContain(SECRET);
    },
  );
});
