/**
 * The sandbox note is added once, on the way out: every message and view posted through the
 * noted client, a listener's respond(), ack and say() ends with it; nothing else changes.
 */
import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import {
  notedMessage,
  notedView,
  SANDBOX_NOTE,
  sandboxAck,
  sandboxClient,
  sandboxRespond,
} from '../../../src/adapters/slack/web-api/sandbox-note.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord } from '../../support/factories.js';

const NOTE_BLOCK = { type: 'context', elements: [{ type: 'mrkdwn', text: SANDBOX_NOTE }] };

/** A Web API client that records what each method was called with. */
function recordingClient() {
  const calls: [string, unknown][] = [];
  const method = (name: string) => async (args: unknown) => {
    calls.push([name, args]);
    return { ok: true };
  };
  const client = {
    token: 'xoxb-test',
    chat: {
      postMessage: method('chat.postMessage'),
      postEphemeral: method('chat.postEphemeral'),
      update: method('chat.update'),
      getPermalink: method('chat.getPermalink'),
    },
    views: {
      open: method('views.open'),
      update: method('views.update'),
      push: method('views.push'),
      publish: method('views.publish'),
    },
    users: { info: method('users.info') },
  };
  return { client: client as unknown as WebClient, calls };
}

describe('the sandbox note', () => {
  it('ends a card with the note, in its blocks and its notification text', () => {
    const card = notedMessage({
      channel: 'C1',
      text: 'Approval needed',
      blocks: requestCardBlocks(buildRecord('pending')),
    });
    expect(card.text).toBe(`Approval needed\n_${SANDBOX_NOTE}_`);
    expect(card.blocks.at(-1)).toEqual(NOTE_BLOCK);
    expect(readableTexts(card.blocks).join('\n')).toContain('Sandbox: no real money moves');
  });

  it('adds it once, however many times a message passes through', () => {
    const once = notedMessage({ text: 'hi', blocks: [] });
    expect(notedMessage(once)).toEqual(once);
    expect(notedView(notedView({ type: 'modal', blocks: [] })).blocks).toEqual([NOTE_BLOCK]);
  });

  it('notes every posting method of the client and leaves the others as they were', async () => {
    const { client, calls } = recordingClient();
    const noted = sandboxClient(client);
    await noted.chat.postMessage({ channel: 'C1', text: 'posted' });
    await noted.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'private' });
    await noted.chat.update({ channel: 'C1', ts: '1.2', text: 'updated', blocks: [] });
    await noted.views.publish({ user_id: 'U1', view: { type: 'home', blocks: [] } });
    await noted.views.open({
      trigger_id: 't',
      view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
    });
    await noted.chat.getPermalink({ channel: 'C1', message_ts: '1.2' });
    await noted.users.info({ user: 'U1' });
    expect(calls.map(([name, args]) => [name, JSON.stringify(args).includes('Sandbox')])).toEqual([
      ['chat.postMessage', true],
      ['chat.postEphemeral', true],
      ['chat.update', true],
      ['views.publish', true],
      ['views.open', true],
      ['chat.getPermalink', false],
      ['users.info', false],
    ]);
    expect(noted.token).toBe('xoxb-test');
  });

  it('notes a respond() and an ack with a message or a view, never a field error', async () => {
    const said: unknown[] = [];
    await sandboxRespond((async (m: unknown) => void said.push(m)) as never)('answer');
    expect(said).toEqual([{ text: `answer\n_${SANDBOX_NOTE}_` }]);
    const acked: unknown[] = [];
    const ack = sandboxAck<unknown>(async (r) => void acked.push(r));
    await ack({ response_action: 'update', view: { type: 'modal', blocks: [] } });
    await ack({ response_action: 'errors', errors: { amount: 'Type an amount.' } });
    await ack();
    expect(acked).toEqual([
      { response_action: 'update', view: { type: 'modal', blocks: [NOTE_BLOCK] } },
      { response_action: 'errors', errors: { amount: 'Type an amount.' } },
      undefined,
    ]);
  });
});
