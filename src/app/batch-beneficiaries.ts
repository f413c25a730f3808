/**
 * Resolves each offramp row's beneficiary to the id of a beneficiary approved in Rampart's
 * registry: by id, or by a label only one approved beneficiary carries. A pending,
 * unknown or ambiguous one is refused with a sentence; the registry is read once per file.
 */
import type { RowError } from '../domain/batch-file.js';
import { maskLongNumbers } from '../domain/personal-data.js';
import type { RequestRecord } from '../domain/request.js';
import type { BeneficiaryEntry } from '../store/registry.js';

export interface BeneficiaryDeps {
  registry: {
    beneficiaries(): Promise<BeneficiaryEntry[]>;
    /** A new beneficiary's cooling-off (store/registry.ts); without it nothing cools. */
    beneficiaryCooling?(id: string): Promise<{ approvedAt: number; usableAt: number } | undefined>;
  };
  /** Pending requests, to say "waits for approval" rather than "unknown" (optional: the CLI may lack it). */
  store?: {
    idsInState(state: 'pending', limit?: number): Promise<string[]>;
    get(id: string): Promise<RequestRecord | undefined>;
  };
}

/** Echoed to the requester: never a long number (an account number typed in the wrong column). */
const shown = (text: string): string => maskLongNumbers(text.slice(0, 60));

/** How many pending requests are looked through for a name that is not approved yet. */
const PENDING_LOOKED_AT = 200;

async function pendingNames(deps: BeneficiaryDeps): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!deps.store) return names;
  const ids = await deps.store.idsInState('pending', PENDING_LOOKED_AT);
  const records = await Promise.all(ids.map((id) => deps.store?.get(id)));
  for (const r of records) {
    const call = r?.sealed.call;
    if (call?.kind === 'register-beneficiary')
      for (const b of call.body.beneficiaries) {
        names.set(b.beneficiary_id.toLowerCase(), r?.sealed.id ?? '');
        names.set(b.label.toLowerCase(), r?.sealed.id ?? '');
      }
    const label = r?.sealed.display.beneficiaryLabel;
    if (call?.kind === 'beneficiary' && label) names.set(label.toLowerCase(), r?.sealed.id ?? '');
  }
  return names;
}

export async function resolveBeneficiaries(
  deps: BeneficiaryDeps,
  rows: readonly { row: number; destination: string }[],
): Promise<{ ids: Map<number, string>; errors: RowError[] }> {
  const approved = await deps.registry.beneficiaries();
  const byId = new Map(approved.map((b) => [b.id, b]));
  const byLabel = new Map<string, BeneficiaryEntry[]>();
  for (const b of approved) {
    const key = b.label.trim().toLowerCase();
    byLabel.set(key, [...(byLabel.get(key) ?? []), b]);
  }
  const ids = new Map<number, string>();
  const unresolved: { row: number; destination: string }[] = [];
  const errors: RowError[] = [];
  for (const r of rows) {
    const found = byId.get(r.destination);
    const labelled = byLabel.get(r.destination.toLowerCase()) ?? [];
    if (found) ids.set(r.row, found.id);
    else if (labelled.length === 1 && labelled[0]) ids.set(r.row, labelled[0].id);
    else if (labelled.length > 1)
      errors.push({
        row: r.row,
        column: 'beneficiary',
        message: `Row ${r.row} beneficiary: "${shown(r.destination)}" is the label of ${labelled.length} approved beneficiaries (${labelled.map((b) => b.id).join(', ')}); write the id of the one to pay.`,
      });
    else unresolved.push(r);
  }
  if (unresolved.length > 0) {
    const pending = await pendingNames(deps);
    for (const r of unresolved) {
      const request = pending.get(r.destination.toLowerCase());
      errors.push({
        row: r.row,
        column: 'beneficiary',
        message: request
          ? `Row ${r.row} beneficiary: "${shown(r.destination)}" is not approved yet (request ${request} waits for approval); pay it once it is approved.`
          : `Row ${r.row} beneficiary: "${shown(r.destination)}" is not an approved beneficiary in Rampart; use an id or label from /beneficiary list, or add it with /beneficiary new and wait for its approval.`,
      });
    }
  }
  return { ids, errors };
}
