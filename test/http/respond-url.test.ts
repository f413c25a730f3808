/**
 * Speed: a routed handler's respond() posts the answer to the response URL
 * with undici (not Bolt's fetch) and fails as Bolt's did. A real Bolt App, a loopback server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type Receiver } from '@slack/bolt';
import { expect, it } from 'vitest';
import { createRoutes } from '../../src/adapters/slack/routes.js';
import { ResponseUrlError } from '../../src/adapters/slack/web-api/respond-url.js';

const nullReceiver: Receiver = { init: () => {}, start: async () => {}, stop: async () => {} };

it('answers through the response URL with its own post, and fails loudly on a refusal', async () => {
  const posted: { type: string | undefined; body: unknown }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      posted.push({ type: req.headers['content-type'], body: JSON.parse(body) });
      res.statusCode = req.url === '/gone' ? 404 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const app = new App({
      receiver: nullReceiver,
      authorize: async () => ({ botToken: 'xoxb-test', botId: 'B0TEST', botUserId: 'U0BOT' }),
    });
    const routes = createRoutes();
    const failures: unknown[] = [];
    routes.command('/rate', async ({ ack, respond }) => {
      await ack();
      await respond({ response_type: 'ephemeral', text: 'rate' }).catch((err: unknown) => failures.push(err));
    });
    routes.mount(app);
    for (const path of ['/ok', '/gone']) {
      await app.processEvent({
        body: { command: '/rate', text: '', team_id: 'T1', user_id: 'U1', channel_id: 'C1', response_url: base + path },
        ack: async () => {},
      });
    }
    expect(posted).toEqual([
      { type: 'application/json', body: { response_type: 'ephemeral', text: 'rate' } },
      { type: 'application/json', body: { response_type: 'ephemeral', text: 'rate' } },
    ]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(ResponseUrlError);
    expect((failures[0] as ResponseUrlError).statusCode).toBe(404);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
