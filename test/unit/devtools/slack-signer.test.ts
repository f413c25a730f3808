import { createHmac } from 'node:crypto';
import { verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { signSlackRequest } from '../../../devkit/slack-signer.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const BODY = 'token=x&team_id=T0FAKE0001&command=%2Fbalance&text=help';

const verify = (body: string, headers: ReturnType<typeof signSlackRequest>, nowMilliseconds = Date.now()) =>
  verifySlackRequest({
    signingSecret: SECRET,
    body,
    headers: {
      'x-slack-signature': headers['x-slack-signature'],
      'x-slack-request-timestamp': Number(headers['x-slack-request-timestamp']),
    },
    nowMilliseconds,
  });

describe('signSlackRequest', () => {
  it("matches Slack's documented example signature", () => {
    // The worked example of https://docs.slack.dev/authentication/verifying-requests-from-slack
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    const headers = signSlackRequest(SECRET, body, 1531420618);
    expect(headers).toEqual({
      'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
      'x-slack-request-timestamp': '1531420618',
    });
  });

  it("is the HMAC-SHA256 of v0:timestamp:body, and passes Bolt's verification", () => {
    const headers = signSlackRequest(SECRET, BODY);
    const ts = headers['x-slack-request-timestamp'];
    const expected = createHmac('sha256', SECRET).update(`v0:${ts}:${BODY}`).digest('hex');
    expect(headers['x-slack-signature']).toBe(`v0=${expected}`);
    expect(() => verify(BODY, headers)).not.toThrow();
  });

  it('fails verification when the body is tampered with', () => {
    const headers = signSlackRequest(SECRET, BODY);
    expect(() => verify(BODY.replace('help', 'USDT'), headers)).toThrow(/signature mismatch/);
  });

  it('fails verification with a wrong secret or a stale timestamp', () => {
    expect(() => verify(BODY, signSlackRequest('not-the-secret', BODY))).toThrow(/signature mismatch/);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expect(() => verify(BODY, signSlackRequest(SECRET, BODY, tenMinutesAgo))).toThrow(/stale/);
  });
});
