/**
 * Slack mrkdwn, as Rampart's card builders write it, as HTML for the passkey page: the page shows
 * the card's own words (slack/blocks/), so an approver compares like with like. Mentions become
 * the person's display name (Slack shows those; the page has no Slack to do it), dates their UTC
 * fallback, links anchors whose text is the card's label. Every character from the card is
 * escaped; the only markup is what this file writes. Pure.
 */
import { escapeHtml } from './html.js';

/** The emoji shortcodes Rampart's cards use, as the characters Slack shows. */
const EMOJI: Record<string, string> = {
  warning: '⚠️',
  white_check_mark: '✅',
  hourglass_flowing_sand: '⏳',
  repeat: '🔁',
  octagonal_sign: '🛑',
  no_entry_sign: '🚫',
  no_entry: '⛔',
  test_tube: '🧪',
  x: '❌',
  rotating_light: '🚨',
  mega: '📣',
  key: '🔑',
  red_circle: '🔴',
  large_green_circle: '🟢',
  heavy_multiplication_x: '✖️',
  gear: '⚙️',
  alarm_clock: '⏰',
  information_source: 'ℹ️',
  double_vertical_bar: '⏸️',
  checkered_flag: '🏁',
  black_square_for_stop: '⏹️',
  ballot_box_with_check: '☑️',
};

/** Slack's three escapes undone: the text is escaped again for HTML. */
const unescapeSlack = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const isSafeUrl = (url: string): boolean => {
  try {
    const p = new URL(url).protocol;
    return p === 'https:' || p === 'http:';
  } catch {
    return false;
  }
};

/** One `<…>` of a card: a mention, a date, a link; anything else as its text. */
function angle(inner: string, names: ReadonlyMap<string, string>): string {
  if (inner.startsWith('@')) {
    const id = inner.slice(1).split('|')[0] ?? '';
    return `<span class="person">${escapeHtml(names.get(id) ?? id)}</span>`;
  }
  const bar = inner.indexOf('|');
  if (inner.startsWith('!date^')) return escapeHtml(unescapeSlack(bar >= 0 ? inner.slice(bar + 1) : inner));
  const url = unescapeSlack(bar >= 0 ? inner.slice(0, bar) : inner);
  const label = unescapeSlack(bar >= 0 ? inner.slice(bar + 1) : inner);
  if (!isSafeUrl(url)) return escapeHtml(label);
  return `<a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(label)}</a>`;
}

/** Bold, italic and emoji in text already escaped for HTML (no `<` of its own). */
const styled = (html: string): string =>
  html
    .replace(/\*([^*\n]+)\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,:;])/g, '$1<em>$2</em>')
    .replace(/:([a-z_]+):/g, (all, name: string) => EMOJI[name] ?? all);

/**
 * `text` (mrkdwn) as HTML. Mentions, dates, links and inline code are set aside first, so no
 * address or URL with `_` or `*` in it is taken for emphasis.
 */
export function mrkdwnHtml(text: string, names: ReadonlyMap<string, string>): string {
  // A private-use character marks what was set aside; one in the text itself is dropped.
  const kept: string[] = [];
  const keep = (html: string): string => `\uE000${kept.push(html) - 1}\uE000`;
  const marked = text
    .replace(/\uE000/g, '')
    .replace(/`([^`\n]*)`/g, (_, code: string) => keep(`<code>${escapeHtml(unescapeSlack(code))}</code>`))
    .replace(/<([^<>\n]*)>/g, (_, inner: string) => keep(angle(inner, names)));
  return styled(escapeHtml(unescapeSlack(marked)))
    .replace(/\uE000(\d+)\uE000/g, (_, i: string) => kept[Number(i)] ?? '')
    .replace(/\n/g, '<br>');
}
