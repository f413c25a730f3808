/**
 * The passkey page's account of what is signed: the approval card itself (slack/blocks/, the same
 * builders, so the same words, figures, names of wallets and chains, the policy sentence, the full
 * address), its buttons left out, its hash line shown as the card labels it with the full hash
 * under the card's 10 characters. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { RequestRecord } from '../../domain/request.js';
import { requestCardBlocks } from '../slack/blocks/card.js';
import { whatLines } from '../slack/blocks/card-lines.js';
import { section } from '../slack/blocks/common.js';
import { escapeHtml } from './html.js';
import { mrkdwnHtml } from './mrkdwn-html.js';

type Names = ReadonlyMap<string, string>;
type TextObject = { type: string; text: string };

const textHtml = (t: TextObject, names: Names): string =>
  t.type === 'mrkdwn' ? mrkdwnHtml(t.text, names) : escapeHtml(t.text).replace(/\n/g, '<br>');

/** The card's hash line: its label, the 10 characters, and what follows them on the card. */
function hashHtml(line: string, short: string, full: string, names: Names): string {
  const at = line.indexOf(`\`${short}\``);
  const label = line.slice(0, at).trim();
  const rest = line.slice(at + short.length + 2);
  return [
    '<section class="hash">',
    `<p>${escapeHtml(label)} <strong class="short">${escapeHtml(short)}</strong>${mrkdwnHtml(rest, names)}</p>`,
    `<p class="full">Full hash your passkey signs: <code>${escapeHtml(full)}</code></p>`,
    '</section>',
  ].join('');
}

function blockHtml(block: KnownBlock, names: Names, hash: { short: string; full: string }): string {
  switch (block.type) {
    case 'header':
      return `<h2>${textHtml(block.text, names)}</h2>`;
    case 'divider':
      return '<hr>';
    case 'section': {
      const parts = [...(block.text ? [block.text] : []), ...(block.fields ?? [])];
      return parts.map((t) => `<p>${textHtml(t, names)}</p>`).join('');
    }
    case 'context': {
      const texts = block.elements.flatMap((e): TextObject[] =>
        (e.type === 'mrkdwn' || e.type === 'plain_text') && 'text' in e ? [e] : [],
      );
      const line = texts.map((t) => t.text).join(' ');
      if (texts.length === 1 && line.includes(`\`${hash.short}\``)) return hashHtml(line, hash.short, hash.full, names);
      return `<p class="context">${texts.map((t) => textHtml(t, names)).join(' ')}</p>`;
    }
    default:
      // Buttons and menus: the page has its own one button; the card's stay in Slack.
      return '';
  }
}

/**
 * The card of `record` as HTML, with `full` (the hash the passkey signs, whose first 10
 * characters the card shows) under the card's hash line. `details`: also the open card's "what
 * runs" lines, for a final card (an unknown outcome), which shows only a summary.
 */
export function cardHtml(record: RequestRecord, full: string, names: Names, details = false): string {
  const blocks = requestCardBlocks(record);
  const f = record.sealed;
  // After the header and the status line, as on the open card.
  if (details && !f.display.batch) blocks.splice(2, 0, section(whatLines(f).join('\n')));
  const hash = { short: f.hash, full };
  return `<div class="card">${blocks.map((b) => blockHtml(b, names, hash)).join('')}</div>`;
}
