/** The ack timer's label (metrics/ack-timer.ts): the same answer as parsing, without re-parsing Slack's payload. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ackKind } from '../../../src/metrics/ack-timer.js';

const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
const payload = (p: object) => form({ payload: JSON.stringify(p) });
const big = {
  actions: [{ action_id: 'request_approve', value: 'R-1' }],
  message: { blocks: Array(50).fill({ type: 'section' }) },
};

afterEach(() => vi.restoreAllMocks());

describe('ackKind', () => {
  it('labels each kind of Slack request as parsing it would', () => {
    expect(ackKind(undefined)).toBe('other');
    expect(ackKind(form({ token: 't', command: '/rate', text: '' }))).toBe('command');
    expect(ackKind(payload({ type: 'block_actions', ...big }))).toBe('action');
    expect(ackKind(payload({ type: 'view_submission', view: {} }))).toBe('view_submission');
    expect(ackKind(payload({ type: 'view_closed' }))).toBe('view_closed');
    expect(ackKind(payload({ type: 'block_suggestion' }))).toBe('options');
    expect(ackKind(payload({ type: 'message_action' }))).toBe('shortcut');
    expect(ackKind(payload({ type: 'something_new' }))).toBe('other');
    // Type not first, or no type at all: the payload is parsed, with the same answers.
    expect(ackKind(payload({ team: { id: 'T1' }, type: 'shortcut' }))).toBe('shortcut');
    expect(ackKind(payload({ team: { id: 'T1' } }))).toBe('other');
    expect(ackKind(form({ payload: '{not json' }))).toBe('other');
    expect(ackKind(form({ other: 'x' }))).toBe('other');
    expect(ackKind(Buffer.from('{"type":"url_verification","challenge":"c"}'))).toBe('url_verification');
    expect(ackKind(Buffer.from('{"type":"event_callback"}'))).toBe('event');
  });

  it('does not decode and parse a click payload again to label its ack (Bolt already parsed it)', () => {
    const click = payload({ type: 'block_actions', ...big });
    const command = form({ command: '/balance', text: 'ops' });
    const parse = vi.spyOn(JSON, 'parse');
    const decode = vi.spyOn(globalThis, 'URLSearchParams');
    expect(ackKind(click)).toBe('action');
    expect(ackKind(command)).toBe('command');
    expect(parse).not.toHaveBeenCalled();
    expect(decode).not.toHaveBeenCalled();
  });
});
