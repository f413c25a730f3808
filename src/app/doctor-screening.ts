/**
 * `rampart doctor`'s screening line: the list loaded and how long since it was confirmed; ✗ when
 * none is loaded under SCREENING=required, or it is older than SCREENING_MAX_AGE (every card then
 * warns, and `required` refuses every payment).
 */
import { listIdentity } from '../domain/rules/screening.js';
import type { Check } from './doctor.js';
import type { ScreeningStatus } from './screening-load.js';

const days = (ms: number) => (ms / 86_400_000).toFixed(1);

export function screeningCheck(s: ScreeningStatus): Check {
  if (s.mode === 'off') return { ok: true, warn: true, text: 'SCREENING=off: destinations are not screened' };
  const load = s.listUrl
    ? `check that ${s.listUrl} answers (the worker fetches it)`
    : 'run `rampart screening load FILE`';
  if (!s.meta)
    return {
      ok: s.mode !== 'required',
      warn: true,
      text: `no sanctions list is loaded${s.mode === 'required' ? ': SCREENING=required refuses every payment' : ': cards say "Not screened"'}`,
      fix: load,
    };
  const what = `${listIdentity(s.meta)} (${s.meta.count} addresses), confirmed ${days(s.ageMs ?? 0)} days ago`;
  return s.stale
    ? { ok: false, text: `the ${what}: older than SCREENING_MAX_AGE (${days(s.maxAgeMs)} days)`, fix: load }
    : { ok: true, text: `the ${what}` };
}
