import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { LogSink } from '../support/log-sink.js';

describe('log redaction', () => {
  it('censors secrets and personal data wherever they sit in a log object', () => {
    const sink = new LogSink();
    const log = createLogger({ level: 'debug' }, sink);
    const secrets = [
      'sk_live_abc123',
      'Bearer tok_999',
      'xoxb-1-2-3',
      'signing-s3cret',
      '22233344455',
      '01-02-1990',
      '0123456789',
      'hunter2!',
      'audit-webhook-secret-value',
      'metrics-token-value',
      'GB33BUKB20201555555555',
    ];
    log.info({ headers: { 'x-service-key': secrets[0], authorization: secrets[1] } }, 'call');
    log.info({ config: { slack: { botToken: secrets[2], signingSecret: secrets[3] } } }, 'config');
    log.info({ body: { details: { bvn: secrets[4], dob: secrets[5] } } }, 'identity');
    log.info({ req: { body: { account_number: secrets[6] } }, user: { password: secrets[7] } }, 'lookup');
    log.info({ config: { auditWebhook: { secret: secrets[8] }, metricsToken: secrets[9] } }, 'ops');
    log.info({ display: { details: { iban: secrets[10] } } }, 'cross-border');
    expect(sink.lines).toHaveLength(6);
    for (const s of secrets) expect(sink.text).not.toContain(s);
    expect(sink.text).toContain('[redacted]');
  });

  it("keeps a failed Redis command's name and never its arguments, however deep the error sits", () => {
    const sink = new LogSink();
    const log = createLogger({ level: 'debug' }, sink);
    // As ioredis reports a failed EVALSHA, and as Bolt wraps a listener's error around it.
    const reply = Object.assign(new Error('ERR Error running script'), {
      command: { name: 'evalsha', args: ['abc', '2', 'k1', 'k2', '{"holder":"Ada Obi","account":"0123456789"}'] },
    });
    const wrapped = Object.assign(new Error('An unhandled error occurred'), { original: reply });
    log.error({ err: reply }, 'direct');
    log.error({ err: wrapped }, 'wrapped');
    expect(sink.text).not.toContain('Ada Obi');
    expect(sink.text).not.toContain('0123456789');
    expect(sink.text).toContain('evalsha');
  });
});
