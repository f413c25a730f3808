/**
 * People's words never become card lines: 200 seeded strings built from what forges a line in
 * mrkdwn (line breaks, `*Amount:*`, mentions, links, quotes, code, bidi controls, U+2028) are
 * put in a reason, a deny reason, a not-paid note, a batch's file name and row reference, and a
 * freeze reason.
 * On every card a person's words appear only in plain_text, on one line, and no mrkdwn text
 * holds them; the text of a thread reply, a direct message or a freeze banner holds them only
 * inside inline code. Pure.
 */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { outcomeReply } from '../../../src/adapters/slack/blocks/card-replies.js';
import { cardText } from '../../../src/adapters/slack/blocks/card-summary.js';
import { freezeAnnouncement, frozenClickText } from '../../../src/adapters/slack/blocks/freeze.js';
import { requesterText } from '../../../src/adapters/slack/blocks/reminders.js';
import { type BatchFacts, previewLines } from '../../../src/domain/batch-approval.js';
import { freeTextProblem } from '../../../src/domain/free-text.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import { buildRecord, buildSealedRequest } from '../../support/factories.js';
import { seeded } from '../../support/seeded.js';

const FORGERIES = [
  '\n',
  '\r\n',
  '\n\n',
  '*Amount:* 25.00',
  '\n*Amount:* *25.00* USDC',
  'row 3 · 0x99ED…EdcF · 25 USDC',
  '<!channel>',
  '<!here>',
  '<@U0EVIL>',
  '<#C0EVIL>',
  '<https://evil.example|Approve here>',
  '`',
  '```',
  '> ',
  '\n> *To:* 0xdead',
  '_',
  '~',
  '&amp;',
  ':rotating_light:',
  '\u202E',
  '\u2066',
  '\u200F',
  '\u061C',
  '\u2028',
  '\u2029',
  '\t',
  '\u0007',
  '\u0085',
];
const WORDS = ['vendor', 'invoice', 'Zahlung', 'März', 'عربى', '🚀', 'ok', '·', '|', '"'];

/** Each string carries a marker no card has of its own, among pieces that forge lines. */
function fuzzStrings(n: number, seed: number): { text: string; marker: string }[] {
  // Seeded, so every run tries the same strings.
  const rnd = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[rnd(list.length)] as T;
  return Array.from({ length: n }, (_, i) => {
    const marker = `qz${i}x${rnd(1e9).toString(36)}`;
    const parts = [marker];
    const count = 1 + rnd(6);
    for (let k = 0; k < count; k++) parts.push(rnd(10) < 7 ? pick(FORGERIES) : pick(WORDS));
    // The marker anywhere: first, in the middle, or last.
    const at = rnd(parts.length);
    parts.splice(0, 1);
    parts.splice(at, 0, marker);
    return { text: parts.join(rnd(2) === 0 ? ' ' : ''), marker };
  });
}

interface TextObject {
  type: 'mrkdwn' | 'plain_text';
  text: string;
}

/** Every text object in the blocks (section texts and fields, context elements, buttons…). */
function textObjects(blocks: unknown): TextObject[] {
  const out: TextObject[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if ((o.type === 'mrkdwn' || o.type === 'plain_text') && typeof o.text === 'string')
        out.push({ type: o.type, text: o.text });
      else Object.values(o).forEach(walk);
    }
  };
  walk(blocks);
  return out;
}

const facts = (preview: string[], fileName: string): BatchFacts => ({
  kind: 'transfers',
  fileName,
  rows: 2,
  total: '9000',
  largest: { row: 2, amount: '9000' },
  availableNow: '20000',
  availableAfter: '11000',
  fileFingerprint: 'f'.repeat(64),
  preview,
});

/**
 * The records the words are put into, built once: a record's hashes do not depend on the words,
 * and hashing 1,600 records again would be most of this file's time.
 */
const BASE = {
  pendingTransfer: buildRecord('pending', 'transfer'),
  pendingOfframp: buildRecord('pending', 'offramp'),
  pendingBeneficiary: buildRecord('pending', 'beneficiary'),
  deniedTransfer: buildRecord('denied', 'transfer'),
  succeededOfframp: buildRecord('succeeded', 'offramp'),
  failedTransfer: buildRecord('failed', 'transfer'),
  transferSealed: buildSealedRequest('transfer'),
};

/** Every card a person's words reach, each with those words in each place they can be. */
function cards(text: string): [string, RequestRecord][] {
  const withReason = (r: RequestRecord): RequestRecord => ({ ...r, sealed: { ...r.sealed, reason: text } });
  const batchSealed = {
    ...BASE.transferSealed,
    id: 'B-1001',
    reason: text,
    display: {
      ...BASE.transferSealed.display,
      amountText: '9000',
      batch: facts(
        previewLines(
          [
            { row: 1, destination: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF', amount: '9000', reference: text },
            { row: 2, destination: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '1', reference: 'INV-2' },
          ],
          'USDC',
        ),
        `${text}.csv`,
      ),
    },
  };
  const batch = (state: 'pending' | 'denied'): RequestRecord => ({
    ...(state === 'pending' ? BASE.pendingTransfer : BASE.deniedTransfer),
    sealed: batchSealed,
    approvalState: state,
    ...(state === 'denied' ? { denyReason: text } : {}),
  });
  return [
    ['pending transfer', withReason(BASE.pendingTransfer)],
    ['pending offramp', withReason(BASE.pendingOfframp)],
    ['pending beneficiary', withReason(BASE.pendingBeneficiary)],
    ['denied transfer', { ...withReason(BASE.deniedTransfer), denyReason: text }],
    ['succeeded offramp', withReason(BASE.succeededOfframp)],
    [
      'recorded as not paid',
      withReason({
        ...BASE.failedTransfer,
        outcome: { message: text, resolution: { by: 'U0APPROVER2', at: 1, paid: false } },
      }),
    ],
    ['pending batch', batch('pending')],
    ['denied batch', batch('denied')],
  ];
}

/** Inline code spans taken out: what is left is read as mrkdwn. */
const outsideCode = (text: string): string => text.replace(/`[^`\n]*`/g, '');

const MENTIONS = ['<!channel>', '<!here>', '<@U0EVIL>', '<#C0EVIL>', 'evil.example'];

/** What is wrong with `t` (said about `why`): the marker or a link outside inline code, a mention anywhere. */
function outsideInlineCode(t: string, marker: string, why: string): string[] {
  const bare = outsideCode(t);
  const problems: string[] = [];
  for (const word of [marker, 'evil.example'])
    if (bare.includes(word)) problems.push(`${why}: ${word} outside inline code in ${JSON.stringify(t)}`);
  if (/<!channel>|<!here>|<@U0EVIL>|<#C0EVIL>/.test(t)) problems.push(`${why}: a mention in ${JSON.stringify(t)}`);
  return problems;
}

describe('free text on cards', () => {
  const strings = fuzzStrings(200, 20_261_128);

  // Each check adds a line to `problems` and each test asserts once that there are none: the same
  // checks as one expect() apiece, without paying an assertion's cost for each of ~50,000 of them.
  it('200 fuzzed strings: never in any mrkdwn text of any card, always in a plain_text element on one line', () => {
    const problems: string[] = [];
    for (const { text, marker } of strings) {
      for (const [name, record] of cards(text)) {
        const blocks = requestCardBlocks(record);
        const objects = textObjects(blocks);
        const why = `${name} with ${JSON.stringify(text)}`;
        for (const o of objects.filter((x) => x.type === 'mrkdwn'))
          for (const word of [marker, ...MENTIONS])
            if (o.text.includes(word)) problems.push(`${why}: mrkdwn ${JSON.stringify(o.text)} holds ${word}`);
        const shown = objects.filter((x) => x.type === 'plain_text' && x.text.includes(marker));
        if (shown.length === 0) problems.push(`${why}: in no plain_text element`);
        for (const o of shown)
          for (const line of o.text.split('\n').filter((l) => l.includes(marker))) {
            const problem = freeTextProblem(line, 'the line');
            if (problem !== undefined) problems.push(`${why}: ${problem}`);
          }
        for (const limit of checkBlockKitLimits('message', { blocks, text: 'card' }))
          problems.push(`${why}: ${JSON.stringify(limit)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('200 fuzzed strings: a thread reply, a direct message and a card’s notification text hold them only as inline code', () => {
    const problems: string[] = [];
    for (const { text, marker } of strings) {
      for (const [name, record] of cards(text)) {
        const said = [
          outcomeReply(record),
          requesterText(record, 'https://example.slack.com/archives/C0/p1', { kind: 'state' }) ?? '',
          cardText(record),
        ];
        for (const t of said) problems.push(...outsideInlineCode(t, marker, `${name} with ${JSON.stringify(text)}`));
      }
    }
    expect(problems).toEqual([]);
  });

  it('200 fuzzed freeze reasons: on a card, in the announcement and in a refused click, only as inline code', () => {
    const problems: string[] = [];
    for (const { text, marker } of strings) {
      const freeze = { by: 'U0APPROVER2', at: 1, reason: text };
      const why = JSON.stringify(text);
      const card = textObjects(requestCardBlocks(buildRecord('pending', 'transfer'), { freeze }));
      const said = [
        ...card.filter((o) => o.type === 'mrkdwn').map((o) => o.text),
        freezeAnnouncement(freeze, 2),
        frozenClickText('R-1001', freeze),
      ];
      if (!said.some((t) => t.includes(marker))) problems.push(`${why}: shown nowhere`);
      for (const t of said) problems.push(...outsideInlineCode(t, marker, why));
    }
    expect(problems).toEqual([]);
  });

  it('the reason is labelled and comes after the figures', () => {
    const record = { ...buildRecord('pending', 'transfer') };
    record.sealed = { ...record.sealed, reason: 'vendor invoice 118\n*Amount:* 25.00' };
    const texts = textObjects(requestCardBlocks(record)).map((o) => o.text);
    const amount = texts.findIndex((t) => t.includes('*Amount:*'));
    const reason = texts.indexOf('Reason: vendor invoice 118 *Amount:* 25.00');
    expect(amount).toBeGreaterThanOrEqual(0);
    expect(reason).toBeGreaterThan(amount);
    expect(texts.filter((t) => t.includes('*Amount:*'))).toHaveLength(2); // the figure, and the words as typed
  });
});
