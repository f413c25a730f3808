/**
 * Speed: Rampart's routes give Bolt one middleware that finds the handler
 * by request type and id. Driven through a real Bolt App's processEvent (no network; answers
 * through the response URL: test/http/respond-url.test.ts).
 */
import { App, type Receiver, type ReceiverEvent } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/adapters/slack/routes.js';

const nullReceiver: Receiver = { init: () => {}, start: async () => {}, stop: async () => {} };

function boltApp(): App {
  return new App({
    receiver: nullReceiver,
    authorize: async () => ({ botToken: 'xoxb-test', botId: 'B0TEST', botUserId: 'U0BOT' }),
  });
}

async function deliver(app: App, body: Record<string, unknown>): Promise<unknown[]> {
  const acks: unknown[] = [];
  const event: ReceiverEvent = {
    body,
    ack: async (response?: unknown) => {
      acks.push(response ?? null);
    },
  };
  await app.processEvent(event);
  return acks;
}

const command = (name: string) => ({ command: name, text: '', team_id: 'T1', user_id: 'U1', channel_id: 'C1' });
const click = (actionId: string) => ({
  type: 'block_actions',
  team: { id: 'T1' },
  user: { id: 'U1' },
  actions: [{ type: 'button', action_id: actionId, block_id: 'b', action_ts: '1' }],
});

/** A Bolt app, fresh routes, and the list each handler notes what it was given in. */
const routing = () => ({ app: boltApp(), routes: createRoutes(), seen: [] as string[] });

describe('Slack routes (route by request type once)', () => {
  it('gives Bolt no listeners, only one middleware, however many handlers there are', () => {
    const app = boltApp();
    const bolt = app as unknown as { listeners: unknown[]; middleware: unknown[] };
    const before = bolt.middleware.length;
    const routes = createRoutes();
    for (let i = 0; i < 20; i++) routes.command(`/c${i}`, async () => {});
    routes.action('a', async () => {});
    routes.event('app_home_opened', async () => {});
    routes.mount(app);
    // Bolt keeps both in private arrays; every listener there would run its matchers on each request.
    expect(bolt.listeners).toHaveLength(0);
    expect(bolt.middleware).toHaveLength(before + 1);
  });

  it('sends a command to its own handler only, and leaves an unknown one alone', async () => {
    const { app, routes, seen } = routing();
    routes.command('/balance', async ({ ack, command }) => {
      seen.push(`balance ${command.command}`);
      await ack({ text: 'ok' });
    });
    routes.command('/rate', async ({ ack }) => {
      seen.push('rate');
      await ack();
    });
    routes.mount(app);
    expect(await deliver(app, command('/balance'))).toEqual([{ text: 'ok' }]);
    expect(await deliver(app, command('/nothing'))).toEqual([]);
    expect(seen).toEqual(['balance /balance']);
  });

  it('finds an action by its exact id first, then by a pattern (a button per row)', async () => {
    const { app, routes, seen } = routing();
    routes.action(/^remove_\d+$/, async ({ ack, action }) => {
      seen.push(`pattern ${'action_id' in action ? action.action_id : '?'}`);
      await ack();
    });
    routes.action('remove_1', async ({ ack }) => {
      seen.push('exact');
      await ack();
    });
    routes.mount(app);
    await deliver(app, click('remove_1'));
    await deliver(app, click('remove_22'));
    await deliver(app, click('remove_x'));
    expect(seen).toEqual(['exact', 'pattern remove_22']);
  });

  it('sends a view submission by callback id and an option request by action id', async () => {
    const { app, routes, seen } = routing();
    routes.view('deny', async ({ ack, view }) => {
      seen.push(`view ${view.callback_id}`);
      await ack();
    });
    routes.options('identity', async ({ ack, options }) => {
      seen.push(`options ${options.value}`);
      await ack({ options: [] });
    });
    routes.mount(app);
    await deliver(app, {
      type: 'view_submission',
      team: { id: 'T1' },
      user: { id: 'U1' },
      view: { id: 'V1', callback_id: 'deny', state: { values: {} }, private_metadata: '' },
    });
    await deliver(app, {
      type: 'block_suggestion',
      team: { id: 'T1' },
      user: { id: 'U1' },
      action_id: 'identity',
      block_id: 'b',
      value: 'ada',
    });
    expect(seen).toEqual(['view deny', 'options ada']);
  });

  it('sends an event by its type', async () => {
    const { app, routes, seen } = routing();
    routes.event('app_home_opened', async ({ event }) => {
      seen.push(event.user);
    });
    routes.mount(app);
    await deliver(app, {
      type: 'event_callback',
      team_id: 'T1',
      event: { type: 'app_home_opened', user: 'U7', channel: 'D1', tab: 'home', event_ts: '1' },
    });
    await deliver(app, { type: 'event_callback', team_id: 'T1', event: { type: 'reaction_added', user: 'U8' } });
    expect(seen).toEqual(['U7']);
  });

  it('refuses a second handler for one id at start-up', () => {
    const routes = createRoutes();
    routes.command('/balance', async () => {});
    expect(() => routes.command('/balance', async () => {})).toThrow('two Slack command handlers for "/balance"');
    routes.view('deny', async () => {});
    expect(() => routes.view('deny', async () => {})).toThrow(/two Slack view handlers/);
  });
});
