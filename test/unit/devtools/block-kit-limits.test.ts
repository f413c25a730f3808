import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';

const section = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
  ...extra,
});
const button = (actionId: string, text = 'Go', value = 'v') => ({
  type: 'button',
  action_id: actionId,
  text: { type: 'plain_text', text },
  value,
});
const modal = (extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: { type: 'plain_text', text: 'New transfer' },
  blocks: [section('hello')],
  ...extra,
});

describe('checkBlockKitLimits', () => {
  it('accepts a message at the limits', () => {
    const blocks = [
      section('x'.repeat(3000)),
      { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(150) } },
      { type: 'actions', elements: [button('a', 'b'.repeat(75), 'v'.repeat(2000))] },
      ...Array.from({ length: 47 }, (_, i) => section(`row ${i}`)),
    ];
    expect(checkBlockKitLimits('message', { text: 't'.repeat(4000), blocks })).toEqual([]);
  });

  it('refuses 51 blocks in a message but allows 100 in a modal, not 101', () => {
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => section(`row ${i}`));
    expect(checkBlockKitLimits('message', { text: 'x', blocks: blocks(51) })).toEqual([
      '/blocks: 51 items, the limit is 50',
    ]);
    expect(checkBlockKitLimits('modal', modal({ blocks: blocks(100) }))).toEqual([]);
    expect(checkBlockKitLimits('home', { type: 'home', blocks: blocks(101) })).toEqual([
      '/blocks: 101 items, the limit is 100',
    ]);
  });

  it('names the path and the limit of each over-long text', () => {
    const blocks = [
      section('x'.repeat(3001)),
      { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } },
      { type: 'actions', elements: [button('a', 'b'.repeat(76), 'v'.repeat(2001))] },
    ];
    expect(checkBlockKitLimits('message', { text: 'fallback', blocks })).toEqual([
      '/blocks/0/text/text: 3001 characters, the limit is 3000',
      '/blocks/1/text/text: 151 characters, the limit is 150',
      '/blocks/2/elements/0/text/text: 76 characters, the limit is 75',
      '/blocks/2/elements/0/value: 2001 characters, the limit is 2000',
    ]);
  });

  it('limits section fields to 10 of at most 2000 characters each', () => {
    const field = (text: string) => ({ type: 'mrkdwn', text });
    const tooMany = section('s', { fields: Array.from({ length: 11 }, () => field('f')) });
    const tooLong = section('s', { fields: [field('f'.repeat(2001))] });
    expect(checkBlockKitLimits('message', { text: 'x', blocks: [tooMany] })).toEqual([
      '/blocks/0/fields: 11 items, the limit is 10',
    ]);
    expect(checkBlockKitLimits('message', { text: 'x', blocks: [tooLong] })).toEqual([
      '/blocks/0/fields/0/text: 2001 characters, the limit is 2000',
    ]);
  });

  it('refuses duplicate block_id and action_id, and ids over 255 characters', () => {
    const blocks = [
      section('a', { block_id: 'same', accessory: button('act') }),
      { type: 'actions', block_id: 'same', elements: [button('act'), button('b'.repeat(256))] },
    ];
    expect(checkBlockKitLimits('message', { text: 'x', blocks })).toEqual([
      '/blocks/1/block_id: duplicate block_id "same"',
      '/blocks/1/elements/0/action_id: duplicate action_id "act"',
      '/blocks/1/elements/1/action_id: 256 characters, the limit is 255',
    ]);
  });

  it('checks modal title, buttons, private_metadata and the submit an input needs', () => {
    const input = {
      type: 'input',
      label: { type: 'plain_text', text: 'Amount' },
      element: { type: 'plain_text_input' },
    };
    const errors = checkBlockKitLimits(
      'modal',
      modal({
        title: { type: 'plain_text', text: 't'.repeat(25) },
        close: { type: 'plain_text', text: 'c'.repeat(25) },
        private_metadata: 'm'.repeat(3001),
        blocks: [input],
      }),
    );
    expect(errors).toEqual([
      '/private_metadata: 3001 characters, the limit is 3000',
      '/title/text: 25 characters, the limit is 24',
      '/close/text: 25 characters, the limit is 24',
      '/submit: is required when the view has an input block',
    ]);
  });

  it('refuses an empty message, empty text objects and a mrkdwn header', () => {
    expect(checkBlockKitLimits('message', { text: '' })).toEqual([
      '/text: a message needs text, blocks or attachments',
    ]);
    const blocks = [section(''), { type: 'header', text: { type: 'mrkdwn', text: 'H' } }];
    expect(checkBlockKitLimits('message', { text: 'x', blocks })).toEqual([
      '/blocks/0/text/text: must not be empty',
      '/blocks/1/text/type: must be plain_text',
    ]);
  });

  it('checks select options and confirm dialogs', () => {
    const option = (value: string) => ({ text: { type: 'plain_text', text: value }, value });
    const select = {
      type: 'static_select',
      action_id: 'pick',
      options: [option('o'.repeat(76)), option('ok')],
      confirm: {
        title: { type: 'plain_text', text: 'Sure?' },
        text: { type: 'plain_text', text: 'x'.repeat(301) },
        confirm: { type: 'plain_text', text: 'Yes' },
        deny: { type: 'plain_text', text: 'No' },
      },
    };
    expect(checkBlockKitLimits('message', { text: 'x', blocks: [{ type: 'actions', elements: [select] }] })).toEqual([
      '/blocks/0/elements/0/confirm/text/text: 301 characters, the limit is 300',
      '/blocks/0/elements/0/options/0/text/text: 76 characters, the limit is 75',
    ]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkBlockKitLimits('message', { text: '💸'.repeat(4000) })).toEqual([]);
  });
});
