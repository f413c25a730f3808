/**
 * Adding address-book entries: every entry checked, then ONE approval for all of them (a form's
 * one entry, or an import's every row: its card lists each one and its approvalHash, which a
 * passkey challenge commits to, covers them all). The top tier's quorum, never the adder's own
 * vote (the vote script refuses the requester), a passkey whenever any step-up setting is on.
 */
import type { Actor } from '../../domain/actor.js';
import { type EntryProblem, entryProblem } from '../../domain/address-book.js';
import type { ChainId } from '../../domain/assets.js';
import { destinationKey } from '../../domain/destination-key.js';
import { evaluatePolicy } from '../../domain/policy.js';
import type { AddressBookEntryCall, SealedRequest } from '../../domain/request.js';
import { needsStepUp } from '../../domain/step-up.js';
import type { AppDeps } from '../deps.js';
import { sealRequest } from '../post-request.js';
import { FORM_BUDGET_MS, screenKeys } from '../screening.js';
import type { SubmitBudget } from '../submit-budget.js';
import { type Lookalike, lookalikesAcross } from './lookalikes.js';

/** At most this many entries in one addition: one card lists them. */
export const MAX_ENTRIES = 200;

export interface EntriesInput {
  entries: readonly { name: string; chain: string; address: string; wallets: '*' | readonly string[] }[];
  actor: Actor;
  reason: string;
  origin: string | undefined;
  /** One form or one file makes at most one request. */
  submission: string;
  budget?: SubmitBudget;
}

/** A problem with the entry at `index`, naming the input it is about (`field`). */
export type IndexedProblem = EntryProblem & { index: number };

export type EntriesOutcome =
  | { kind: 'invalid'; problems: IndexedProblem[] }
  | { kind: 'created'; sealed: SealedRequest; entries: AddressBookEntryCall[] }
  | { kind: 'taken'; id: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'nothing' };

type Deps = Pick<AppDeps, 'store' | 'config' | 'log' | 'now' | 'screeningService'>;

async function problemsOf(deps: Deps, input: EntriesInput): Promise<IndexedProblem[]> {
  const problems: IndexedProblem[] = [];
  if (input.entries.length === 0) problems.push({ index: 0, field: 'entries', message: 'There is no entry to add.' });
  if (input.entries.length > MAX_ENTRIES)
    problems.push({
      index: 0,
      field: 'entries',
      message: `${input.entries.length} entries is too many; add at most ${MAX_ENTRIES} at once.`,
    });
  const wallets = new Set(deps.config.wallets.flatMap((w) => [w.id, w.alias]));
  const seen = new Set<string>();
  const typed: { index: number; key: string; address: string; chain: string }[] = [];
  for (const [index, e] of input.entries.entries()) {
    const problem = entryProblem(e);
    if (problem) {
      problems.push({ index, ...problem });
      continue;
    }
    const unknown = e.wallets === '*' ? undefined : e.wallets.find((w) => !wallets.has(w));
    if (unknown !== undefined) {
      problems.push({
        index,
        field: 'wallets',
        message: `"${unknown}" is not a configured wallet; name wallets by id or alias, or leave wallets empty for all.`,
      });
      continue;
    }
    const key = destinationKey(e.chain as ChainId, e.address);
    if (seen.has(key)) {
      problems.push({ index, field: 'address', message: `${e.address} on ${e.chain} is listed twice; keep one.` });
      continue;
    }
    seen.add(key);
    typed.push({ index, key, address: e.address, chain: e.chain });
  }
  // One read of the book for every entry (an import may list hundreds).
  const names = await deps.store.book.liveNames(typed.map((t) => t.key));
  for (const [i, t] of typed.entries()) {
    const name = names[i];
    if (name !== undefined)
      problems.push({
        index: t.index,
        field: 'address',
        message: `${t.address} on ${t.chain} is already in the address book as "${name}"; remove it first to change it.`,
      });
  }
  if (problems.length === 0) problems.push(...(await screened(deps, input)));
  return problems.sort((a, b) => a.index - b.index);
}

/** Entries are screened like payments: each listed address refused with the screening sentence. */
async function screened(deps: Deps, input: EntriesInput): Promise<IndexedProblem[]> {
  const keys = input.entries.map((e) => destinationKey(e.chain as ChainId, e.address));
  const verdict = await screenKeys(deps, keys, input.budget ? { budgetMs: FORM_BUDGET_MS } : {});
  if (!verdict.code) return [];
  return keys.flatMap((key, index) => {
    const sentence = verdict.refused.get(key);
    const e = input.entries[index];
    return sentence && e
      ? [{ index, field: 'address' as const, message: `${e.address} on ${e.chain}: ${sentence}` }]
      : [];
  });
}

/**
 * Entries that look like an entry, an address paid before or one of the last 90 days on their
 * chain (app/destinations/lookalikes.ts): an address poisoned into the book is flagged on its card.
 */
const entryLookalikes = (deps: Deps, entries: readonly AddressBookEntryCall[]) =>
  lookalikesAcross(
    deps,
    entries.map((e, i) => ({ row: i + 1, chain: e.chain as ChainId, destination: e.address })),
  );

/** Wallet aliases resolved to ids, so the start script compares the sealed wallet id. */
const walletIds = (deps: Deps, wallets: '*' | readonly string[]): '*' | string[] =>
  wallets === '*' ? '*' : wallets.map((w) => deps.config.wallets.find((c) => c.alias === w || c.id === w)?.id ?? w);

/**
 * The checks before the create (the book, the screening list, lookalikes): with a budget (Slack's
 * 3 s ack) they end by the create's deadline, as a payment form's do (app/submit-request.ts).
 */
async function checked(
  deps: Deps,
  input: EntriesInput,
): Promise<{ problems: IndexedProblem[] } | { entries: AddressBookEntryCall[]; alike: Lookalike[] }> {
  const problems = await problemsOf(deps, input);
  if (problems.length > 0) return { problems };
  const entries: AddressBookEntryCall[] = input.entries.map((e) => ({
    name: e.name.trim(),
    chain: e.chain,
    address: e.address.trim(),
    wallets: walletIds(deps, e.wallets),
  }));
  return { entries, alike: await entryLookalikes(deps, entries) };
}

export async function submitEntries(deps: Deps, input: EntriesInput): Promise<EntriesOutcome> {
  let read: Awaited<ReturnType<typeof checked>>;
  if (!input.budget) read = await checked(deps, input);
  else
    try {
      read = await input.budget.beforeCreate(checked(deps, input));
    } catch (err) {
      // Only reads so far: nothing is stored, so "nothing was submitted" is true.
      deps.log.warn({ err }, 'Redis did not answer the address-book checks in time');
      return { kind: 'nothing' };
    }
  if ('problems' in read) return { kind: 'invalid', problems: read.problems };
  const { entries, alike } = read;
  const policy = evaluatePolicy(deps.config.policy, { kind: 'address-book' });
  if (!policy.ok) return { kind: 'refused', reason: policy.reason };
  const submitted = await sealRequest(
    deps,
    {
      call: { kind: 'address-book', body: { entries } },
      display: alike.length > 0 ? { entryLookalikes: alike } : {},
      requester: input.actor.user,
      reason: input.reason,
      origin: input.origin,
      required: policy.required,
      rule: policy.rule,
      stepUp: needsStepUp(deps.config.stepUp, { kind: 'address-book' }),
      submission: input.submission,
    },
    input.budget,
  );
  if (submitted.kind === 'created') return { kind: 'created', sealed: submitted.sealed, entries };
  if (submitted.kind === 'taken') return { kind: 'taken', id: submitted.id };
  if (submitted.kind === 'refused') return { kind: 'refused', reason: submitted.reason };
  return { kind: 'nothing' };
}
