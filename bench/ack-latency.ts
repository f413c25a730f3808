/**
 * Part 1: how long Slack waits for the ack of a slash command. Signed `/rate`
 * commands with C in flight; the time is from sending to the end of the HTTP response.
 */
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { Pool, request } from 'undici';
import { type FakeSlack, formBody, signSlackRequest, slashCommandFields } from '../devkit/index.js';
import { GENERAL, PEOPLE } from './world.js';

export interface Target {
  url: string;
  secret: string;
}

export interface LoadResult {
  samples: number[];
  errors: number;
  firstError: string | undefined;
  wallMs: number;
}

export interface AckClient {
  run(total: number): Promise<LoadResult>;
  close(): Promise<void>;
}

/** A `/rate` body as Slack sends it, with a response URL the fake Slack accepts. */
export function rateCommandBody(fake: FakeSlack, text: string): string {
  const user = PEOPLE.requester;
  const fields = slashCommandFields(
    {
      team: { id: fake.settings.teamId, domain: fake.settings.teamDomain },
      user: { id: user, name: user.toLowerCase() },
      apiAppId: fake.settings.appId,
      token: 'fake-verification-token',
    },
    {
      command: '/rate',
      text,
      channel: { id: GENERAL, name: 'treasury' },
      responseUrl: fake.issueResponseUrl({ channel: GENERAL, user }),
      triggerId: fake.issueTriggerId(user),
    },
  );
  return formBody(fields);
}

/** One connection pool per target, kept open from warm-up to measurement. */
export function ackClient(target: Target, concurrency: number, makeBody: () => string): AckClient {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: concurrency, pipelining: 1 });
  return {
    async run(total) {
      const samples: number[] = [];
      let errors = 0;
      let firstError: string | undefined;
      let issued = 0;
      const fail = (why: string) => {
        errors += 1;
        firstError ??= why;
      };
      const lane = async () => {
        while (issued < total) {
          issued += 1;
          const body = makeBody();
          const headers = {
            'content-type': 'application/x-www-form-urlencoded',
            ...signSlackRequest(target.secret, body),
          };
          const started = performance.now();
          try {
            const res = await pool.request({ path: url.pathname, method: 'POST', headers, body });
            const text = await res.body.text();
            const took = performance.now() - started;
            if (res.statusCode === 200) samples.push(took);
            else fail(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
          } catch (err) {
            fail(err instanceof Error ? err.message : String(err));
          }
        }
      };
      const began = performance.now();
      await Promise.all(Array.from({ length: Math.min(concurrency, total) }, lane));
      return { samples, errors, firstError, wallMs: performance.now() - began };
    },
    close: () => pool.close(),
  };
}

export interface BareBolt {
  url: string;
  close(): Promise<void>;
}

/**
 * The floor: a Bolt app on the same receiver whose `/rate` acks and then makes the same service
 * call as Rampart (GET /rate/onramp on the sandbox) and answers the response URL (the
 * ack goal is judged against a bare app doing the same work after its ack). With a token and
 * tokenVerificationEnabled false, Bolt 5.1 calls auth.test before every request
 * (singleAuthorization in App.js); giving it botId and botUserId skips that, so the floor makes
 * no Slack call at all. Its client still points at the fake Slack, never at slack.com.
 */
export async function startBareBolt(
  signingSecret: string,
  slack: { apiUrl: string; botToken: string },
  service: { url: string; apiKey: string },
): Promise<BareBolt> {
  const receiver = new HTTPReceiver({
    signingSecret,
    endpoints: '/slack/events',
    processBeforeResponse: false,
    logLevel: LogLevel.ERROR,
  });
  const app = new App({
    token: slack.botToken,
    botId: 'B0BENCHBARE',
    botUserId: 'U0BENCHBARE',
    receiver,
    tokenVerificationEnabled: false,
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
    logLevel: LogLevel.ERROR,
  });
  const rateUrl = new URL('/rate/onramp?currency=ngn', service.url);
  app.command('/rate', async ({ ack, respond }) => {
    await ack();
    const res = await request(rateUrl, { headers: { accept: 'application/json', 'x-service-key': service.apiKey } });
    const answer = (await res.body.json()) as { data?: { rate?: number } };
    await respond({ response_type: 'ephemeral', text: `NGN onramp rate: ${answer.data?.rate ?? '?'}` });
  });
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    async close() {
      await app.stop();
    },
  };
}
