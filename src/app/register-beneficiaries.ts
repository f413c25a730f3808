/**
 * Registering beneficiaries that already exist at the service, from a Slack form or a
 * CSV file: every row checked (rules, duplicates in the batch and against the registry, the
 * identity with GET /identity), then one approval-gated request for all of them — or a list of
 * every problem and nothing changed. No Bolt, no WebClient.
 */
import { type StatedField, type StatedInput, statedProblems, toStated } from '../domain/beneficiary-registration.js';
import { evaluatePolicy, type PolicySettings } from '../domain/policy.js';
import type { RequestDisplay, ServiceCall, StatedBeneficiary } from '../domain/request.js';
import { checkIdentity, type IdentityCheck, type IdentityDeps } from './identities.js';

export interface RegisterDeps extends IdentityDeps {
  config: { policy: PolicySettings };
}

export interface StatedRow {
  /** The file's line number (1 is the header), or 0 for a form. */
  line: number;
  input: StatedInput;
}

export interface RowProblem {
  line: number;
  field: StatedField;
  message: string;
}

/** Why an identity check stopped a row; the edge phrases the rest of the sentence. */
export type IdentityProblem = Exclude<IdentityCheck['kind'], 'found'> | 'inactive';

export type RegistrationCheck =
  | {
      kind: 'ready';
      call: Extract<ServiceCall, { kind: 'register-beneficiary' }>;
      display: RequestDisplay;
      required: number;
      rule: string;
    }
  | { kind: 'invalid'; problems: RowProblem[] }
  | { kind: 'refused'; reason: string };

const IDENTITY_SENTENCE: Record<IdentityProblem, string> = {
  unknown: 'The service knows no identity with this id (GET /identity answered not found).',
  inactive: 'The service says this identity is inactive, so it cannot own a payout destination.',
  bvn: 'This looks like a BVN; give the identity id.',
  slow: 'The service did not answer in time, so the identity could not be checked; try again in a moment.',
  unavailable: 'The service could not be asked about this identity; try again in a minute.',
};

export async function checkRegistration(
  deps: RegisterDeps,
  rows: readonly StatedRow[],
  by: string,
  identityDeadlineMs?: number,
): Promise<RegistrationCheck> {
  const problems: RowProblem[] = [];
  const add = (line: number, field: StatedField, message: string) => problems.push({ line, field, message });
  const good: Array<{ line: number; stated: StatedBeneficiary }> = [];
  const firstLine = new Map<string, number>();
  for (const { line, input } of rows) {
    const found = statedProblems(input);
    for (const [field, message] of Object.entries(found)) add(line, field as StatedField, message);
    const stated = toStated(input);
    if (!found.beneficiary_id) {
      const earlier = firstLine.get(stated.beneficiary_id);
      if (earlier !== undefined)
        add(
          line,
          'beneficiary_id',
          `Beneficiary id ${stated.beneficiary_id} is listed twice (also on line ${earlier}).`,
        );
      else firstLine.set(stated.beneficiary_id, line);
    }
    if (Object.keys(found).length === 0) good.push({ line, stated });
  }
  // Against the registry: one approved already cannot be registered again.
  for (const { line, stated } of good) {
    const existing = await deps.registry.beneficiary(stated.beneficiary_id);
    if (existing)
      add(
        line,
        'beneficiary_id',
        `Beneficiary id ${stated.beneficiary_id} is already in Rampart's registry (${existing.requestId}).`,
      );
  }
  // Each identity once, with the service.
  const checks = new Map<string, IdentityCheck>();
  for (const id of new Set(good.map((g) => g.stated.identity_id)))
    checks.set(id, await checkIdentity(deps, id, by, identityDeadlineMs, false));
  for (const { line, stated } of good) {
    const check = checks.get(stated.identity_id);
    if (!check) continue;
    const problem: IdentityProblem | undefined =
      check.kind !== 'found' ? check.kind : check.active ? undefined : 'inactive';
    if (problem) add(line, 'identity_id', IDENTITY_SENTENCE[problem]);
  }
  if (problems.length > 0 || good.length === 0) {
    if (problems.length === 0) return { kind: 'refused', reason: 'There is nothing to register.' };
    return { kind: 'invalid', problems: problems.sort((a, b) => a.line - b.line) };
  }
  const policy = evaluatePolicy(deps.config.policy, { kind: 'register-beneficiary' });
  if (!policy.ok) return { kind: 'refused', reason: policy.reason };
  // The batch is good: now the identities seen are remembered, as the pickers do.
  for (const c of checks.values())
    if (c.kind === 'found')
      await deps.registry.rememberIdentity(
        { id: c.entry.id, type: c.entry.type, bvnLast4: c.entry.bvnLast4, isActive: c.active },
        by,
        deps.now(),
      );
  const identitiesChecked = [...checks.values()].flatMap((c) =>
    c.kind === 'found' ? [{ id: c.entry.id, bvnLast4: c.entry.bvnLast4, active: c.active }] : [],
  );
  return {
    kind: 'ready',
    call: { kind: 'register-beneficiary', body: { beneficiaries: good.map((g) => g.stated) } },
    display: { identitiesChecked },
    required: policy.required,
    rule: policy.rule,
  };
}
