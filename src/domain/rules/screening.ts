/**
 * Screening: a destination on the loaded sanctions list is never paid; with SCREENING=required
 * nothing is paid without a list confirmed within SCREENING_MAX_AGE. Decided here for every
 * submission door (app/screening.ts asks it once per destination key), and again inside the start
 * script (store/lua/start.lua), which applies the same rule to the list as it is then.
 * Pure: also the card's line saying what was checked.
 */
import { ALLOW, type RuleOutcome } from './outcome.js';
import type { SecondOpinionCode } from './second-opinion.js';

export type ScreeningMode = 'off' | 'on' | 'required';

/** What is stored beside the list (store/screening.ts). */
export interface ScreeningMeta {
  name: string;
  /** Publication date, YYYY-MM-DD. */
  published: string;
  sha256: string;
  count: number;
  /** Addresses per destination-key family. */
  families: Record<string, number>;
  loadedBy: string;
  /** A file name or a URL without credentials. */
  source: string;
  loadedAt: number;
  /** The last successful load or fetch that confirmed this list: its age counts from here. */
  confirmedAt: number;
}

export interface ScreeningFacts {
  mode: ScreeningMode;
  meta: ScreeningMeta | undefined;
  /** The destination key (domain/destination-key.ts). */
  key: string;
  /** SISMEMBER of the key on the list. */
  listed: boolean;
  now: number;
  maxAgeMs: number;
}

export type ScreeningCode = 'screening_listed' | 'screening_no_list' | 'screening_stale';

const SCREENING_CODES: ReadonlySet<string> = new Set<ScreeningCode>([
  'screening_listed',
  'screening_no_list',
  'screening_stale',
]);

/** The list's own refusal (a start's cancel also has address-book codes). */
export const isScreeningCode = (code: string): code is ScreeningCode => SCREENING_CODES.has(code);

/** Every refusal screening gives at submission: the list's, or the second opinion's (SCREENING_URL). */
export type ScreeningRefusal = ScreeningCode | SecondOpinionCode;

/** Only addresses are screened: a beneficiary is a bank account the service checked. */
export const isScreened = (key: string): boolean => !key.startsWith('beneficiary:');

export const isStale = (meta: ScreeningMeta, now: number, maxAgeMs: number): boolean =>
  now - meta.confirmedAt > maxAgeMs;

export function screeningRule(f: ScreeningFacts): RuleOutcome<ScreeningCode> {
  if (f.mode === 'off' || !isScreened(f.key)) return ALLOW;
  if (f.listed && f.meta) return { ok: false, code: 'screening_listed' };
  if (f.mode !== 'required') return ALLOW;
  if (!f.meta) return { ok: false, code: 'screening_no_list' };
  if (isStale(f.meta, f.now, f.maxAgeMs)) return { ok: false, code: 'screening_stale' };
  return ALLOW;
}

const FAMILY_NAMES: Record<string, string> = { evm: 'EVM', solana: 'Solana' };
const familyOf = (key: string): string => key.slice(0, key.indexOf(':'));
const days = (ms: number): number => Math.floor(ms / 86_400_000);

/** "OFAC SDN list of 2026-11-27". */
export const listIdentity = (meta: Pick<ScreeningMeta, 'name' | 'published'>): string =>
  `${meta.name} list of ${meta.published}`;

/** The one sentence each door shows for a refusal, naming the list and its date. */
export function screeningSentence(code: ScreeningCode, meta: ScreeningMeta | undefined, now: number): string {
  switch (code) {
    case 'screening_listed':
      return `This address is on the ${meta ? listIdentity(meta) : 'sanctions list'}, so Rampart will not pay it; check the destination with compliance.`;
    case 'screening_no_list':
      return 'Screening is required and no sanctions list is loaded; ask an admin to run `rampart screening load` before paying.';
    case 'screening_stale':
      return `Screening is required and the ${meta ? listIdentity(meta) : 'sanctions list'} was last confirmed ${meta ? days(now - meta.confirmedAt) : '?'} days ago; ask an admin to refresh it before paying.`;
  }
}

/** The start script's sentences (store/lua/includes/screening.lua). */
const SCREENING_WORDS = /^(listed on .+|no sanctions list loaded .+|the .+ is stale .+); nothing sent$/;

/**
 * Decided by the stored code. Entries and outcomes written before the start script stored its
 * code have only its sentence (store/lua/includes/screening.lua's words), so those alone are told
 * by the words.
 */
const screenedBy = (code: string | undefined, words: string | undefined): boolean =>
  code !== undefined ? isScreeningCode(code) : words !== undefined && SCREENING_WORDS.test(words);

/**
 * A history entry the start script wrote when screening refused an execution
 * (store/lua/includes/start-cancel.lua): what the hit notice reports.
 */
export const isScreeningCancel = (e: { event: string; by?: string; detail?: string; code?: string }): boolean =>
  e.event === 'cancelled' && e.by === 'rampart' && screenedBy(e.code, e.detail);

/** The outcome the start script stored on an execution it cancelled because of screening. */
export const isScreeningOutcome = (o: { message?: string; code?: string } | undefined): boolean =>
  o !== undefined && screenedBy(o.code, o.message);

/** The card's lines: what was checked, and a warning when the list is stale. Empty with SCREENING=off. */
export function screeningLines(
  mode: ScreeningMode,
  meta: ScreeningMeta | undefined,
  key: string | undefined,
  now: number,
  maxAgeMs: number,
): string[] {
  if (mode === 'off' || !key || !isScreened(key)) return [];
  if (!meta) return ['⚠️ Not screened: no list loaded'];
  const family = familyOf(key);
  const lines =
    (meta.families[family] ?? 0) === 0
      ? [`${meta.name} lists no ${FAMILY_NAMES[family] ?? family} addresses; not screened`]
      : [
          `Screened: ${listIdentity(meta)} (sha ${meta.sha256.slice(0, 6)}…, ${meta.count.toLocaleString('en-US')} addresses): no match`,
        ];
  if (isStale(meta, now, maxAgeMs))
    lines.push(
      `⚠️ The screening list was last confirmed ${days(now - meta.confirmedAt)} days ago (older than SCREENING_MAX_AGE)`,
    );
  return lines;
}
