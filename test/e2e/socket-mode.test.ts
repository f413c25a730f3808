/**
 * Socket Mode: Rampart with SLACK_APP_TOKEN connects to the fake's Socket Mode
 * (apps.connections.open → ws://127.0.0.1, hello, envelopes with envelope_id and acks) and the
 * journeys work as over HTTP: a command, a modal, an approval, the outcome in the thread. A
 * `disconnect` message or a dropped socket makes it reconnect, and no approval is lost.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeSocketMode } from '../../devkit/index.js';
import { APP_TOKEN, blocksText, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('socket-mode', { TWO_APPROVALS_ABOVE: 'USDC=100' }, { socketMode: true });
let socket: FakeSocketMode;
beforeAll(() => {
  if (!h.fake.socketMode) throw new Error('the fake runs without Socket Mode');
  socket = h.fake.socketMode;
});

/** Waits until Rampart holds a new connection, beyond the `before` it had opened. */
const reconnected = (before: number) =>
  eventually(() => (socket.connectionsOpened > before && socket.connected > 0 ? true : undefined), 15_000, 'reconnect');

describe('Socket Mode', () => {
  it('connects with the app-level token through SLACK_API_URL; nothing listens for signed HTTP', async () => {
    await eventually(() => (socket.connected > 0 ? true : undefined), 10_000, 'socket connection');
    const opens = h.fake.callsTo('apps.connections.open');
    expect(opens.length).toBeGreaterThan(0);
    expect(opens.every((c) => c.response.ok === true)).toBe(true);
    expect(APP_TOKEN.startsWith('xapp-')).toBe(true);
  });

  it('a command: /balance answers the person who asked', async () => {
    const ack = await h.driver.command(PEOPLE.requester, '/balance', 'ops');
    expect(ack.status).toBe(200);
    const answer = await eventually(
      () => h.fake.ephemerals(PEOPLE.requester).find((e) => blocksText(e).includes('USDC')),
      10_000,
      'balance answer',
    );
    expect(blocksText(answer)).toContain('ops');
  });

  it('a modal: field errors come back in the acknowledgement, and a good form posts one card', async () => {
    const refused = await flow.submitRequest(h, 'transfer', `25 base:usdc to 0x1234 from ops for bad receiver`);
    expect((refused.body as { response_action?: string }).response_action).toBe('errors');
    const { id, card } = await flow.postRequest(
      h,
      'transfer',
      `25 base:usdc to ${flow.RECEIVER} from ops for socket modal`,
    );
    expect(blocksText(card)).toContain(id);
  });

  it('an approval and the thread reply: runs once, the outcome lands in the thread', async () => {
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `30 base:usdc to ${flow.RECEIVER} from ops for socket approval`,
    );
    const before = flow.serviceCalls(h, '/transfer').length;
    const clicked = await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    expect(clicked.status).toBe(200);
    await flow.waitForState(h, id, 'succeeded');
    const reply = await flow.threadReply(h, id, 'succeeded', 8000, 'thread reply');
    expect(reply.text).toContain('https://basescan.org/tx/0x');
    expect(flow.serviceCalls(h, '/transfer').length).toBe(before + 1);
  });

  it('a refresh_requested disconnect between two approvals loses neither: the request runs once', async () => {
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `150 base:usdc to ${flow.RECEIVER} from ops for two approvers`,
    );
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(async () => ((await h.rampart.deps.store.get(id))?.votes.length === 1 ? true : undefined));
    const opened = socket.connectionsOpened;
    socket.refresh();
    await reconnected(opened);
    const before = flow.serviceCalls(h, '/transfer').length;
    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    const record = await flow.waitForState(h, id, 'succeeded');
    expect(record.votes.map((v) => v.user)).toEqual([PEOPLE.approver1, PEOPLE.approver2]);
    await flow.quiescent(h);
    expect(flow.serviceCalls(h, '/transfer').length).toBe(before + 1);
  });

  it('a dropped socket reconnects by itself; a click after it is counted once', async () => {
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `40 base:usdc to ${flow.RECEIVER} from ops for dropped socket`,
    );
    const opened = socket.connectionsOpened;
    socket.drop();
    await reconnected(opened);
    const before = flow.serviceCalls(h, '/transfer').length;
    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    await flow.quiescent(h);
    expect(flow.serviceCalls(h, '/transfer').length).toBe(before + 1);
    expect(blocksText(flow.currentCard(h, id))).toContain('Succeeded');
    expect(flow.ephemeralText(h, PEOPLE.approver2)).not.toContain('went wrong');
  });
});
