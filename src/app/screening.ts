/**
 * Screening at submission: every destination of a submission — a form's receiver, an API
 * transfer, every batch row (Slack file, API, request again) — is asked of the list in one
 * command and judged by the one rule (domain/rules/screening.ts). The start script asks again
 * with the list as it is then (store/lua/start.lua).
 */
import {
  isScreened,
  type ScreeningMeta,
  type ScreeningRefusal,
  type SecondOpinion,
  screeningLines,
  screeningRule,
  screeningSentence,
  secondOpinionRule,
  secondOpinionSentence,
} from '../domain/rules/index.js';
import type { AppDeps } from './deps.js';

export type ScreeningDeps = Pick<AppDeps, 'store' | 'now' | 'screeningService'> & {
  config: Pick<AppDeps['config'], 'screening'>;
};

/** A single form's wait for the second opinion (a batch's rows wait as its other checks do). */
export const FORM_BUDGET_MS = 700;

export interface ScreeningVerdict {
  /** The first refusal's code, or undefined when every destination may be paid. */
  code: ScreeningRefusal | undefined;
  /** Per refused key, the one sentence its door shows. */
  refused: Map<string, string>;
  /** The card's lines for a destination key (what was checked, or what was not). */
  lines(key: string | undefined): string[];
}

const PASS: ScreeningVerdict = { code: undefined, refused: new Map(), lines: () => [] };

/**
 * Screens `keys` (destination keys, any number) against the loaded list in one round trip and,
 * with SCREENING_URL, asks the screening service beside it (`budgetMs`: how long a form waits).
 */
export async function screenKeys(
  deps: ScreeningDeps,
  keys: readonly string[],
  options: { budgetMs?: number } = {},
): Promise<ScreeningVerdict> {
  const { mode, maxAgeMs, service } = deps.config.screening;
  if (mode === 'off') return PASS;
  const unique = [...new Set(keys)];
  const [{ meta, listed }, opinions] = await Promise.all([
    deps.store.screening.check(unique),
    secondOpinions(deps, unique.filter(isScreened), options.budgetMs),
  ]);
  const now = deps.now();
  const refused = new Map<string, string>();
  let code: ScreeningVerdict['code'];
  unique.forEach((key, i) => {
    const outcome = screeningRule({ mode, meta, key, listed: listed[i] === true, now, maxAgeMs });
    if (!outcome.ok) {
      code ??= outcome.code;
      refused.set(key, screeningSentence(outcome.code, meta, now));
      return;
    }
    const opinion = opinions.get(key);
    const second = opinion && service ? secondOpinionRule(opinion, service.onError) : undefined;
    if (!opinion || !second || second.ok) return;
    code ??= second.code;
    refused.set(key, secondOpinionSentence(second.code, opinion));
  });
  return { code, refused, lines: (key) => screeningLines(mode, meta, key, now, maxAgeMs) };
}

/** An EVM or Solana destination key's address (domain/destination-key.ts: `<family>:<address>`). */
const addressOf = (key: string): string => key.slice(key.indexOf(':') + 1);

/**
 * The second opinion per destination key: kept answers first, the service for the rest (the
 * client keeps at most 8 in flight), new answers kept for SCREENING_URL_CACHE.
 */
async function secondOpinions(
  deps: ScreeningDeps,
  keys: readonly string[],
  budgetMs: number | undefined,
): Promise<Map<string, SecondOpinion>> {
  const service = deps.screeningService;
  const settings = deps.config.screening.service;
  const out = new Map<string, SecondOpinion>();
  if (!service || !settings || keys.length === 0) return out;
  const kept = await deps.store.screening.answers.get(keys);
  const missing = keys.filter((key, i) => {
    const answer = kept[i];
    if (answer) out.set(key, answer);
    return !answer;
  });
  const signal = budgetMs === undefined ? undefined : AbortSignal.timeout(budgetMs);
  const asked = await Promise.all(missing.map((key) => service.ask(addressOf(key), signal)));
  const fresh: Array<[string, SecondOpinion]> = [];
  missing.forEach((key, i) => {
    const answer = asked[i] ?? { kind: 'unanswered' };
    out.set(key, answer);
    if (answer.kind === 'answered') fresh.push([key, answer]);
  });
  await deps.store.screening.answers.put(fresh, settings.cacheMs);
  return out;
}

/** The list's identity as now stored (status, doctor, notices). */
export const screeningMeta = (deps: Pick<AppDeps, 'store'>): Promise<ScreeningMeta | undefined> =>
  deps.store.screening.current();
