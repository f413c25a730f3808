/**
 * Screening at submission: every destination of a submission — a form's receiver, an API
 * transfer, every batch row (Slack file, API, request again) — is asked of the list in one
 * command and judged by the one rule (domain/rules/screening.ts). The start script asks again
 * with the list as it is then (store/lua/start.lua).
 */
import {
  type ScreeningCode,
  type ScreeningMeta,
  screeningLines,
  screeningRule,
  screeningSentence,
} from '../domain/rules/index.js';
import type { AppDeps } from './deps.js';

export type ScreeningDeps = Pick<AppDeps, 'store' | 'now'> & { config: Pick<AppDeps['config'], 'screening'> };

export interface ScreeningVerdict {
  /** The first refusal's code, or undefined when every destination may be paid. */
  code: ScreeningCode | undefined;
  /** Per refused key, the one sentence its door shows. */
  refused: Map<string, string>;
  /** The card's lines for a destination key (what was checked, or what was not). */
  lines(key: string | undefined): string[];
}

const PASS: ScreeningVerdict = { code: undefined, refused: new Map(), lines: () => [] };

/** Screens `keys` (destination keys, any number) against the loaded list in one round trip. */
export async function screenKeys(deps: ScreeningDeps, keys: readonly string[]): Promise<ScreeningVerdict> {
  const { mode, maxAgeMs } = deps.config.screening;
  if (mode === 'off') return PASS;
  const unique = [...new Set(keys)];
  const { meta, listed } = await deps.store.screening.check(unique);
  const now = deps.now();
  const refused = new Map<string, string>();
  let code: ScreeningCode | undefined;
  unique.forEach((key, i) => {
    const outcome = screeningRule({ mode, meta, key, listed: listed[i] === true, now, maxAgeMs });
    if (outcome.ok) return;
    code ??= outcome.code;
    refused.set(key, screeningSentence(outcome.code, meta, now));
  });
  return { code, refused, lines: (key) => screeningLines(mode, meta, key, now, maxAgeMs) };
}

/** The list's identity as now stored (status, doctor, notices). */
export const screeningMeta = (deps: Pick<AppDeps, 'store'>): Promise<ScreeningMeta | undefined> =>
  deps.store.screening.current();
