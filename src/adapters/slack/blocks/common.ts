/** Small pure helpers shared by the Block Kit builders. */
import type { KnownBlock } from '@slack/types';
import { oneLine } from '../../../domain/free-text.js';

export type Blocks = KnownBlock[];

/** Slack's own escaping for mrkdwn text taken from people or the service. */
export const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const mrkdwn = (text: string) => ({
  type: 'mrkdwn' as const,
  text: text.length > 3000 ? `${text.slice(0, 2999)}…` : text,
});
/**
 * A button's accessibility label: the first of `forms` within Slack's 75 characters, so a label
 * is made short, never cut (the last form must always fit).
 */
export const spokenLabel = (...forms: string[]): string =>
  forms.find((f) => f.length <= 75) ?? (forms.at(-1) as string);

export const plain = (text: string, max = 150) => ({
  type: 'plain_text' as const,
  text: text.length > max ? `${text.slice(0, max - 1)}…` : text,
  emoji: true,
});

export const section = (text: string): KnownBlock => ({ type: 'section', text: mrkdwn(text) });
export const context = (text: string): KnownBlock => ({ type: 'context', elements: [mrkdwn(text)] });
export const header = (text: string): KnownBlock => ({ type: 'header', text: plain(text) });

/**
 * The one format for every date people read in Slack — "Today 09:30", "Nov 21
 * 09:30" — in each reader's own time zone; the fallback (notifications, old clients) in UTC.
 */
export const slackDate = (ms: number): string =>
  `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC>`;

/**
 * A URL as the target of a mrkdwn link, or undefined: http(s) only, Slack's three escapes, and
 * no `|`, which would end the target and let the rest pose as the label (a seam where service data enters).
 */
export function linkTarget(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return esc(parsed.href.replaceAll('|', '%7C'));
}

/** `<url|label>` for a safe URL; otherwise the label alone, as text. Every link is built here. */
export const link = (url: string, label: string): string => {
  const target = linkTarget(url);
  return target ? `<${target}|${esc(label)}>` : esc(label);
};

/** Inline code for text from people or the service: escaped, with no backtick to close it early. */
export const code = (text: string): string => `\`${esc(text.replaceAll('`', "'"))}\``;

/**
 * People's words on a card (a reason, a deny reason), labelled and after the figures: plain_text
 * shows them as typed, so no mrkdwn, mention or link in them acts, and on one line they cannot
 * pose as more of the card's lines.
 */
export const wordsBlock = (label: string, text: string): KnownBlock => ({
  type: 'section',
  text: plain(`${label}: ${oneLine(text)}`, 3000),
});

/** People's words inside a text-only message (a thread reply, a direct message): one line of inline code. */
export const quoted = (text: string): string => code(oneLine(text));

/** The "Share in channel" button carries only what is needed to answer again. */
export function shareButton(command: string, args: string): KnownBlock {
  return {
    type: 'actions',
    block_id: 'share',
    elements: [
      {
        type: 'button',
        action_id: 'share_in_channel',
        text: plain('Share in channel', 75),
        value: JSON.stringify({ command, args }).slice(0, 2000),
      },
    ],
  };
}

/** An error answer: one sentence, and the usage when it helps. */
export const errorBlocks = (message: string, usage?: string): Blocks =>
  usage ? [section(`:warning: ${esc(message)}`), context(usage)] : [section(`:warning: ${esc(message)}`)];

/** An input block whose element's action id is its block id (how every form here reads its values). */
export function input(
  blockId: string,
  label: string,
  element: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    label: plain(label, 2000),
    element: { action_id: blockId, ...element },
    ...extra,
  } as KnownBlock;
}

/** A one-line text field with its hint (`extra`: max_length, initial_value…). */
export const textInput = (id: string, label: string, hint: string, extra: Record<string, unknown> = {}): KnownBlock =>
  input(id, label, { type: 'plain_text_input', ...extra }, { hint: plain(hint) });

/** The forms' free-text Reason field, shown on the card. */
export const reasonInput = (): KnownBlock => input('reason', 'Reason', { type: 'plain_text_input', multiline: true });

/** What screening checked at submission (RequestDisplay.screening), as sealed with the request. */
export const screeningBlocks = (screening: readonly string[] | undefined): KnownBlock[] =>
  screening && screening.length > 0 ? [context(screening.map(esc).join('\n'))] : [];
