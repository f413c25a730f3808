// Slack's `<!date^seconds^format^link|fallback>` as a Slack client draws it: in the reader's own
// time zone, with the format's tokens replaced
// (https://docs.slack.dev/messaging/formatting-message-text#date-formatting). The server leaves
// the fallback in a <time> element; the page replaces it here, in the browser's zone.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** @param {number} n */
const ordinal = (n) => {
  const tens = n % 100;
  return `${n}${tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
};

/**
 * The calendar day and clock of `date` in `timeZone` (undefined: the browser's).
 * @param {Date} date @param {string | undefined} timeZone
 */
function partsIn(date, timeZone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(date);
  /** @param {string} type */
  const get = (type) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const year = get('year');
  const month = get('month');
  const day = get('day');
  return { year, month, day, weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay() };
}

/**
 * @param {number} seconds @param {string} format
 * @param {{ now?: Date, timeZone?: string, locale?: string }} [options]
 *   locale decides 12 or 24 hours for {time}, as the reader's settings do in Slack.
 */
export function slackDate(seconds, format, options = {}) {
  const date = new Date(seconds * 1000);
  const now = options.now ?? new Date();
  const { timeZone, locale } = options;
  const d = partsIn(date, timeZone);
  const today = partsIn(now, timeZone);
  const dayNumber = (/** @type {{ year: number, month: number, day: number }} */ p) =>
    Date.UTC(p.year, p.month - 1, p.day) / 86_400_000;
  const offset = dayNumber(d) - dayNumber(today);
  const relative = offset === 0 ? 'today' : offset === -1 ? 'yesterday' : offset === 1 ? 'tomorrow' : '';
  const month = MONTHS[d.month - 1] ?? '';
  const dateLong = `${DAYS[d.weekday]}, ${month} ${ordinal(d.day)}, ${d.year}`;
  const dateMid = `${month} ${ordinal(d.day)}, ${d.year}`;
  const dateShort = `${month.slice(0, 3)} ${d.day}, ${d.year}`;
  // 12 or 24 hours as the reader's locale has it: "6:30 PM", or "18:30" and "00:30".
  const clock = (/** @type {boolean} */ secs) => {
    const parts = new Intl.DateTimeFormat(locale, {
      timeZone,
      hour: 'numeric',
      minute: '2-digit',
      ...(secs ? { second: '2-digit' } : {}),
    }).formatToParts(date);
    const h24 = !parts.some((p) => p.type === 'dayPeriod');
    // ICU puts a narrow no-break space before AM/PM; Slack writes a plain one.
    return parts
      .map((p) => (p.type === 'hour' && h24 ? p.value.padStart(2, '0') : p.value.replace(/\s/gu, ' ')))
      .join('');
  };
  /** @type {Record<string, () => string>} */
  const tokens = {
    date_num: () => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`,
    date: () => dateMid,
    date_short: () => dateShort,
    date_long: () => dateLong,
    date_pretty: () => relative || dateMid,
    date_short_pretty: () => relative || dateShort,
    date_long_pretty: () => relative || dateLong,
    time: () => clock(false),
    time_secs: () => clock(true),
    ago: () => ago(now.getTime() - date.getTime()),
  };
  return format.replace(/\{(\w+)\}/g, (whole, name, at) => {
    const token = tokens[name];
    if (!token) return whole;
    const text = token();
    // "Today at 10:00", but "Due today": capitalised only where the line starts.
    return at === 0 && text === relative ? text[0].toUpperCase() + text.slice(1) : text;
  });
}

/** @param {number} ms */
function ago(ms) {
  const future = ms < 0;
  const s = Math.abs(ms) / 1000;
  const [n, unit] =
    s < 60
      ? [0, '']
      : s < 3600
        ? [Math.floor(s / 60), 'minute']
        : s < 86_400
          ? [Math.floor(s / 3600), 'hour']
          : [Math.floor(s / 86_400), 'day'];
  if (n === 0) return 'just now';
  const amount = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${amount}` : `${amount} ago`;
}

/** Replaces every date the server left with its fallback under `root`. @param {ParentNode} root */
export function localizeDates(root) {
  for (const el of root.querySelectorAll('time.mk-date[data-format]')) {
    const seconds = Number(el.getAttribute('data-seconds'));
    const format = el.getAttribute('data-format') ?? '';
    if (Number.isFinite(seconds) && format) el.textContent = slackDate(seconds, format);
  }
}
