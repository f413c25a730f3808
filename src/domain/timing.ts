/**
 * When an approved payment may run (DESIGN invariant 11): a cancel window after the quorum for the
 * approvals DELAY_* pick, and a time the requester set. Decided once at submission and sealed with
 * the record; the quorum's vote script turns it into `runAt` on Redis's clock. Pure: no I/O.
 */
import type { Amount } from './amount.js';
import type { Timing } from './request.js';
import { needsStepUp } from './step-up.js';

export interface DelaySettings {
  delayMs: number;
  /** Asset code (upper case) → threshold, as STEP_UP_ABOVE; '*' for every code. */
  above: Record<string, string> | undefined;
  newDestination: boolean;
  entireBalance: boolean;
}

export interface DelaySubject {
  assetCode?: string;
  /** The sealed amount (a batch: its total). */
  amount?: Amount;
  newDestination: boolean;
  /** Asked for "entire balance" (sealed as the exact amount shown). */
  entireBalance: boolean;
}

/**
 * The cancel window this payment gets, or undefined for none. DELAY_ABOVE reads as STEP_UP_ABOVE
 * does (an asset it does not name gets the window at every amount: the admin drew a line for money
 * and an unnamed asset must not slip under it), so it shares that function.
 */
export function cancelWindowMs(settings: DelaySettings, subject: DelaySubject): number | undefined {
  const byAmount =
    settings.above !== undefined &&
    needsStepUp(
      { above: settings.above, newDestination: false },
      { ...subject, kind: 'transfer', newDestination: false },
    );
  const applies =
    byAmount ||
    (settings.newDestination && subject.newDestination) ||
    (settings.entireBalance && subject.entireBalance);
  return applies ? settings.delayMs : undefined;
}

/** What to seal: the window and the set time together (undefined when neither applies). */
export function timingOf(delayMs: number | undefined, set?: { at: number; zone: string }): Timing | undefined {
  if (delayMs === undefined && !set) return undefined;
  return {
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(set ? { notBefore: set.at, zone: set.zone } : {}),
  };
}

/** When it runs: approved, its runAt (Redis ms); before that, the time it was set for (if any). */
export const runAtOf = (r: {
  runAt?: number | undefined;
  sealed: { timing?: { notBefore?: number | undefined } | undefined };
}): number | undefined => r.runAt ?? r.sealed.timing?.notBefore;

const parts = (ms: number, zone: string): Record<string, string> =>
  Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );

/** "2026-12-04 09:00 Africa/Lagos": a moment as a person in that zone reads it. */
export function zonedTime(ms: number, zone: string): string {
  const p = parts(ms, zone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${zone}`;
}

/** "1 h", "30 min", "45 s", "2 d": a window's length in words. */
export function durationWords(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  for (const [size, word] of units) if (ms >= size && ms % size === 0) return `${ms / size} ${word}`;
  return `${Math.ceil(ms / 1000)} s`;
}

/**
 * A wall-clock time typed in a zone ("2026-12-04 09:00" in Africa/Lagos) as epoch ms, or
 * undefined when it is not such a time. The zone's offset at that moment is found by formatting
 * a first guess back in the zone (daylight-saving changes included).
 */
export function parseZonedTime(text: string, zone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  if (Number.isNaN(asUtc) || new Date(asUtc).getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  const p = parts(asUtc, zone);
  const shown = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  return asUtc - (shown - asUtc);
}

export type ScheduleProblem = 'not_a_time' | 'in_the_past' | 'too_far_ahead';

/** A set time is in the future and no further than SCHEDULE_MAX_AHEAD; one sentence when not. */
export function scheduleRule(
  at: number | undefined,
  now: number,
  maxAheadMs: number,
): { ok: true; at: number } | { ok: false; code: ScheduleProblem; message: string } {
  if (at === undefined)
    return {
      ok: false,
      code: 'not_a_time',
      message: 'Write the time as YYYY-MM-DD HH:MM, for example 2026-12-04 09:00.',
    };
  if (at <= now)
    return { ok: false, code: 'in_the_past', message: 'That time has passed; choose a time in the future, or Now.' };
  if (at - now > maxAheadMs)
    return {
      ok: false,
      code: 'too_far_ahead',
      message: `That is more than ${durationWords(maxAheadMs)} ahead (SCHEDULE_MAX_AHEAD); choose an earlier time.`,
    };
  return { ok: true, at };
}
