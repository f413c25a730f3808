/**
 * Slack's `<!date>` as the page draws it: in the reader's time zone, with Slack's format tokens
 * (https://docs.slack.dev/messaging/formatting-message-text#date-formatting).
 */
import { describe, expect, it } from 'vitest';
import { slackDate } from '../../../devkit/workbench/public/dates.js';

// 2026-11-28 23:30 UTC: already Sunday the 29th in Lagos (UTC+1), still Saturday in New York.
const AT = Date.UTC(2026, 10, 28, 23, 30) / 1000;
const NOW = new Date(Date.UTC(2026, 10, 28, 20, 0));

describe('slackDate', () => {
  it('puts the day and the time in the reader’s zone, not the server’s', () => {
    const format = '{date_num} {time}';
    expect(slackDate(AT, format, { timeZone: 'Africa/Lagos', locale: 'en-GB', now: NOW })).toBe('2026-11-29 00:30');
    expect(slackDate(AT, format, { timeZone: 'America/New_York', locale: 'en-US', now: NOW })).toBe(
      '2026-11-28 6:30 PM',
    );
  });

  it('writes dates as Slack does, with today, yesterday and tomorrow in the pretty forms', () => {
    const lagos = { timeZone: 'Africa/Lagos', locale: 'en-GB', now: NOW };
    expect(slackDate(AT, '{date_long}', lagos)).toBe('Sunday, November 29th, 2026');
    expect(slackDate(AT, '{date}', lagos)).toBe('November 29th, 2026');
    expect(slackDate(AT, '{date_short}', lagos)).toBe('Nov 29, 2026');
    expect(slackDate(AT, '{date_short_pretty} {time}', lagos)).toBe('Tomorrow 00:30');
    expect(slackDate(AT, 'due {date_pretty}', { ...lagos, timeZone: 'America/New_York' })).toBe('due today');
    expect(slackDate(AT - 2 * 86_400, '{date_short_pretty}', lagos)).toBe('Yesterday');
    expect(slackDate(AT - 3 * 86_400, '{date_short_pretty}', lagos)).toBe('Nov 26, 2026');
    expect(slackDate(AT, '{time_secs}', lagos)).toBe('00:30:00');
    expect(slackDate(AT, '{ago}', lagos)).toBe('in 3 hours');
    expect(slackDate(Date.UTC(2026, 10, 11) / 1000, '{date}', lagos)).toBe('November 11th, 2026');
    expect(slackDate(AT, '{unknown} stays', lagos)).toBe('{unknown} stays');
  });
});
