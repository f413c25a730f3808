/**
 * Slack's mrkdwn as HTML (https://docs.slack.dev/messaging/formatting-message-text): *bold*,
 * _italic_, ~strike~, `code`, ```code blocks```, > quotes, <url|links>, <@U…> and <#C…>
 * mentions, <!here>, <!subteam^…>, <!date^…|fallback> (drawn in the reader's zone by the page), :emoji: and line
 * breaks. Tokens are set aside behind private-use placeholders first, so formatting can wrap
 * them but never reach inside them.
 */
import { EMOJI } from './emoji.js';
import { escapeHtml, isObject, str, unsupported } from './html.js';

/** Names for mentions, the way a Slack client shows them. */
export interface Directory {
  personName(userId: string): string | undefined;
  channelName(channelId: string): string | undefined;
}

const INLINE = '\uE000';
const BLOCK = '\uE002';
const END = '\uE001';
const SENTINELS = /[\uE000-\uE002]/g;

/** Slack escapes only these three in mrkdwn; `&amp;` last so `&amp;lt;` stays `&lt;`. */
const decode = (text: string): string => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const SAFE_URL = /^(https?:|mailto:)/i;

function anchor(url: string, label: string): string {
  if (!SAFE_URL.test(url)) return escapeHtml(label === url ? url : `${label} (${url})`);
  return `<a class="mk-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(label)}</a>`;
}

const mention = (text: string, className = 'mk-mention'): string =>
  `<span class="${className}">${escapeHtml(text)}</span>`;

/**
 * `<!date^seconds^format^link|fallback>`: the fallback, in a <time> the page rewrites in the
 * reader's own time zone (public/dates.js), as a Slack client does; a bad date stays its fallback.
 */
function dateHtml(parts: string[], label: string): string {
  const [raw = '', format = '', link = ''] = parts;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(seconds)) return escapeHtml(label);
  const iso = new Date(seconds * 1000).toISOString();
  const time = `<time class="mk-date" datetime="${iso}" title="${iso}" data-seconds="${seconds}" data-format="${escapeHtml(format)}">${escapeHtml(label || iso)}</time>`;
  const url = decode(link);
  return SAFE_URL.test(url)
    ? `<a class="mk-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${time}</a>`
    : time;
}

/** One `<…>` token: a mention, a special command, a date or a link. */
function token(inner: string, dir: Directory): string {
  const bar = inner.indexOf('|');
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? '' : decode(inner.slice(bar + 1));
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return mention(`@${dir.personName(id) ?? (label || id)}`);
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return mention(`#${dir.channelName(id) ?? (label || id)}`);
  }
  if (target.startsWith('!')) {
    const [command = '', ...parts] = target.slice(1).split('^');
    if (command === 'here' || command === 'channel' || command === 'everyone') return mention(`@${command}`);
    if (command === 'subteam') return mention(label || `@${parts[0] ?? 'group'}`);
    if (command === 'date') return dateHtml(parts, label);
    return escapeHtml(label || `<${decode(inner)}>`);
  }
  const url = decode(target);
  return anchor(url, label || url);
}

function formatInline(escaped: string): string {
  return escaped
    .replace(/(?<![\p{L}\p{N}*])\*([^\s*](?:[^*\n]*?[^\s*])?)\*(?![\p{L}\p{N}*])/gu, '<b>$1</b>')
    .replace(/(?<![\p{L}\p{N}_])_([^\s_](?:[^_\n]*?[^\s_])?)_(?![\p{L}\p{N}_])/gu, '<i>$1</i>')
    .replace(/(?<![\p{L}\p{N}~])~([^\s~](?:[^~\n]*?[^\s~])?)~(?![\p{L}\p{N}~])/gu, '<s>$1</s>');
}

/** Consecutive lines starting with `>` become one quote. */
function quotes(escaped: string): string {
  const out: string[] = [];
  let quote: string[] = [];
  const flush = () => {
    if (quote.length > 0) out.push(`<blockquote class="mk-quote">${quote.join('<br>')}</blockquote>`);
    quote = [];
  };
  for (const line of escaped.split('\n')) {
    const m = /^&gt;\s?(.*)$/.exec(line);
    if (m) quote.push(m[1] ?? '');
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join('\n').replace(/<\/blockquote>\n/g, '</blockquote>');
}

export function mrkdwnToHtml(text: string, dir: Directory, options: { verbatim?: boolean } = {}): string {
  const slots: string[] = [];
  const hold = (html: string, kind = INLINE): string => `${kind}${slots.push(html) - 1}${END}`;
  let s = text.replace(SENTINELS, '');
  s = s.replace(/```([\s\S]*?)```/g, (_m, code: string) =>
    hold(`<pre class="mk-pre">${escapeHtml(decode(code.replace(/^\n/, '')))}</pre>`, BLOCK),
  );
  s = s.replace(/`([^`\n]+)`/g, (_m, code: string) => hold(`<code class="mk-code">${escapeHtml(decode(code))}</code>`));
  s = s.replace(/<([^<>\n]*)>/g, (_m, inner: string) => hold(token(inner, dir)));
  if (!options.verbatim) {
    s = s.replace(/\bhttps?:\/\/[^\s<>\uE000-\uE002]+/g, (url) => hold(anchor(decode(url), decode(url))));
  }
  s = s.replace(/:([a-z0-9_+-]+):/g, (m, name: string) => {
    const emoji = EMOJI[name];
    return emoji ? hold(`<span class="mk-emoji" title=":${name}:">${emoji}</span>`) : m;
  });
  s = quotes(formatInline(escapeHtml(decode(s))));
  s = s.replace(/\n?(\uE002\d+\uE001)\n?/g, '$1').replace(/\n/g, '<br>');
  return s.replace(/[\uE000\uE002](\d+)\uE001/g, (_m, i: string) => slots[Number(i)] ?? '');
}

/** plain_text: shown as typed; `emoji: false` keeps shortcodes as text. */
export function plainToHtml(text: string, emoji = true): string {
  const escaped = escapeHtml(text).replace(/\n/g, '<br>');
  if (!emoji) return escaped;
  return escaped.replace(/:([a-z0-9_+-]+):/g, (m, name: string) => EMOJI[name] ?? m);
}

/** A Block Kit text object (plain_text or mrkdwn) as HTML; anything else as a visible placeholder. */
export function textToHtml(value: unknown, dir: Directory): string {
  if (!isObject(value)) return '';
  const text = str(value.text) ?? '';
  if (value.type === 'mrkdwn') return mrkdwnToHtml(text, dir, { verbatim: value.verbatim === true });
  if (value.type === 'plain_text') return plainToHtml(text, value.emoji !== false);
  return unsupported(`text object "${String(value.type)}"`);
}

/** The plain text of a text object (for labels, titles, option text in native controls). */
export const textOf = (value: unknown): string => (isObject(value) ? (str(value.text) ?? '') : '');
