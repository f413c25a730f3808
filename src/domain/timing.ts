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

/** Waiting: approved with a runAt still ahead (Redis ms). Between quorum and runAt, anyone may cancel. */
export const isWaiting = (r: { approvalState: string; runAt?: number | undefined }, now: number): boolean =>
  (r.approvalState === 'approved' || r.approvalState === 'running') && (r.runAt ?? 0) > now;
