/**
 * Signs a request body the way Slack does, so tests can feed Bolt's receiver real-looking requests
 * (https://docs.slack.dev/authentication/verifying-requests-from-slack).
 */
import { createHmac } from 'node:crypto';

export interface SlackSignatureHeaders {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` keyed with the signing secret. */
export function signSlackRequest(
  signingSecret: string,
  rawBody: string,
  timestampSeconds: number = nowSeconds(),
): SlackSignatureHeaders {
  const digest = createHmac('sha256', signingSecret).update(`v0:${timestampSeconds}:${rawBody}`).digest('hex');
  return { 'x-slack-signature': `v0=${digest}`, 'x-slack-request-timestamp': String(timestampSeconds) };
}
