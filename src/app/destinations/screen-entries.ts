/**
 * Entries are screened like payments: at submission every entry's address is asked of the loaded
 * list (and SCREENING_URL) with app/screening.ts screenKeys, and again when the addition is
 * approved, on the list as it is then (domain/rules/screening.ts screeningRule), so an address
 * listed while its card waited never enters the book. A payment to an entry is still screened at
 * its own start (store/lua/start.lua).
 */
import type { EntryInput } from '../../domain/address-book.js';
import { destinationKey } from '../../domain/destination-key.js';
import { type ScreeningMode, screeningRule, screeningSentence } from '../../domain/rules/index.js';
import type { RequestStore } from '../../store/requests.js';
import type { Clock } from '../ports.js';

/** The default the start script uses too (store/executions.ts start). */
const DEFAULT_SCREENING = { mode: 'on' as ScreeningMode, maxAgeMs: 7 * 86_400_000 };

/** The first entry the list refuses now, with the screening sentence; undefined when none. */
export async function listedEntry(
  deps: {
    store: Pick<RequestStore, 'screening'>;
    now: Clock;
    screening?: { mode: ScreeningMode; maxAgeMs: number } | undefined;
  },
  entries: readonly Pick<EntryInput, 'chain' | 'address' | 'name'>[],
): Promise<{ index: number; message: string } | undefined> {
  const { mode, maxAgeMs } = deps.screening ?? DEFAULT_SCREENING;
  if (mode === 'off' || entries.length === 0) return undefined;
  const keys = entries.map((e) => destinationKey(e.chain, e.address));
  const { meta, listed } = await deps.store.screening.check(keys);
  const now = deps.now();
  for (const [index, key] of keys.entries()) {
    const outcome = screeningRule({ mode, meta, key, listed: listed[index] === true, now, maxAgeMs });
    if (!outcome.ok) return { index, message: screeningSentence(outcome.code, meta, now) };
  }
  return undefined;
}
