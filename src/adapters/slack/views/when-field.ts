/**
 * The payment forms' **When** field (the transfer and offramp form, /batch), read one way: empty
 * or "now" runs once approved; anything else is a wall-clock time read in SCHEDULE_ZONE (`at`
 * undefined when it is not one: the app answers at the field). Pure.
 */
import { parseZonedTime } from '../../../domain/timing.js';

/** Empty or "now": no set time. */
export const isNow = (typed: string | undefined): boolean => {
  const t = typed?.trim().toLowerCase() ?? '';
  return t === '' || t === 'now';
};

/** The set time the field asks for, as submissions take it (`runAt`), or nothing. */
export function whenField(
  typed: string | undefined,
  zone: string,
): { runAt?: { at: number | undefined; zone: string } } {
  if (isNow(typed)) return {};
  return { runAt: { at: parseZonedTime((typed ?? '').trim(), zone), zone } };
}
