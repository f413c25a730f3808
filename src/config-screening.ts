/**
 * Screening settings (docs/screening.md): the mode, where the list is fetched from and how
 * often, how old it may be, and who hears of a hit. Part of loadConfig: every problem is
 * collected with the rest.
 */

import type { ScreeningMode } from './domain/rules/screening.js';
import type { OnError } from './domain/rules/second-opinion.js';

export interface ScreeningConfig {
  /** SCREENING: off, on (default) or required. */
  mode: ScreeningMode;
  /** SCREENING_LIST_URL: fetched every `refreshMs` by the worker; https only. */
  listUrl: string | undefined;
  /** SCREENING_REFRESH (default 24h). */
  refreshMs: number;
  /** SCREENING_MAX_AGE (default 7d): since the last load or fetch that confirmed the list. */
  maxAgeMs: number;
  /** SCREENING_NOTIFY: a user group (S…) or channel (C…/G…) told of a hit; undefined: approvers only. */
  notify: string | undefined;
  /** SCREENING_URL (+ SCREENING_URL_KEY): the optional second opinion, asked at submission only. */
  service: ScreeningServiceConfig | undefined;
}

export interface ScreeningServiceConfig {
  /** The base URL; `GET {url}/address/{address}` is asked. https only outside development and tests. */
  url: string;
  /** Sent as the X-API-Key header; undefined: none. */
  apiKey: string | undefined;
  /** SCREENING_URL_CACHE (default 24h): how long an answer is kept per destination. */
  cacheMs: number;
  /** SCREENING_ON_ERROR: refuse (default) or allow a destination the service did not answer for. */
  onError: OnError;
}

const MODES: readonly ScreeningMode[] = ['off', 'on', 'required'];

export function parseScreening(
  env: Record<string, string | undefined>,
  parseDuration: (text: string) => number | undefined,
  problems: string[],
): ScreeningConfig {
  const modeText = env.SCREENING?.trim().toLowerCase() || 'on';
  const mode = MODES.find((m) => m === modeText);
  if (!mode) problems.push(`SCREENING must be off, on or required (default on), not "${modeText}"`);
  const duration = (name: string, fallback: string, ms: number): number => {
    const text = env[name]?.trim() || fallback;
    const v = parseDuration(text);
    if (v === undefined || v <= 0) {
      problems.push(`${name} must be a duration such as 12h, 24h or 7d (default ${fallback})`);
      return ms;
    }
    return v;
  };
  const refreshMs = duration('SCREENING_REFRESH', '24h', 86_400_000);
  const maxAgeMs = duration('SCREENING_MAX_AGE', '7d', 7 * 86_400_000);
  const listUrl = env.SCREENING_LIST_URL?.trim() || undefined;
  // The list decides who may be paid: fetched only over TLS.
  if (listUrl && !(URL.canParse(listUrl) && new URL(listUrl).protocol === 'https:'))
    problems.push(
      'SCREENING_LIST_URL must be an https:// URL, such as https://www.treasury.gov/ofac/downloads/sdn.xml',
    );
  const notify = env.SCREENING_NOTIFY?.trim() || undefined;
  if (notify && !/^[SCG][A-Z0-9]{2,}$/.test(notify))
    problems.push('SCREENING_NOTIFY must be a user group id (S…) or a channel id (C…), not a name');
  const cacheMs = duration('SCREENING_URL_CACHE', '24h', 86_400_000);
  const onErrorText = env.SCREENING_ON_ERROR?.trim().toLowerCase() || 'refuse';
  const onError = (['refuse', 'allow'] as const).find((o) => o === onErrorText);
  if (!onError) problems.push(`SCREENING_ON_ERROR must be refuse or allow (default refuse), not "${onErrorText}"`);
  const url = env.SCREENING_URL?.trim().replace(/\/+$/, '') || undefined;
  // Every destination address is sent there: over TLS, except to a local server in development and tests.
  const local = env.NODE_ENV === 'test' || (env.NODE_ENV ?? 'development') === 'development';
  const protocols = local ? ['https:', 'http:'] : ['https:'];
  if (url && !(URL.canParse(url) && protocols.includes(new URL(url).protocol)))
    problems.push('SCREENING_URL must be an https:// URL, such as https://public.chainalysis.com/api/v1');
  const apiKey = env.SCREENING_URL_KEY?.trim() || undefined;
  const service = url ? { url, apiKey, cacheMs, onError: onError ?? 'refuse' } : undefined;
  return { mode: mode ?? 'on', listUrl, refreshMs, maxAgeMs, notify, service };
}
