/**
 * `rampart doctor`'s passkey line: with step-up on, it warns
 * when fewer approvers hold a passkey that counts than the largest quorum needs; until then such
 * requests cannot reach quorum and stay pending until they expire (docs/step-up.md). A warning,
 * not a failure: a new install has no passkey until its first bootstrap enrolment.
 */
import type { Config } from '../config.js';
import { plural } from '../domain/words.js';
import type { Check } from './doctor.js';

/** The most approvals any request can need: 2 above TWO_APPROVALS_ABOVE, else APPROVALS_REQUIRED. */
export const largestQuorum = (policy: Config['policy']): number => {
  const base = Math.max(1, policy.approvalsRequired);
  return policy.twoApprovalsAbove ? Math.max(base, 2) : base;
};

export interface PasskeyHolders {
  /** Approvers with at least one passkey that counts now (active, out of its cool-down). */
  usableHolders(now: number): Promise<number>;
}

export async function* passkeyChecks(config: Config, holders: () => Promise<PasskeyHolders>): AsyncGenerator<Check> {
  const s = config.stepUp;
  if (!s.above && !s.newDestination) return;
  const needed = largestQuorum(config.policy);
  let have: number;
  try {
    have = await (await holders()).usableHolders(Date.now());
  } catch (err) {
    yield { ok: false, text: `passkeys could not be read (${err instanceof Error ? err.message : String(err)})` };
    return;
  }
  yield have >= needed
    ? { ok: true, text: `${plural(have, 'approver')} with a passkey that counts (the largest quorum needs ${needed})` }
    : {
        ok: true,
        warn: true,
        text: `only ${plural(have, 'approver')} with a passkey that counts, and the largest quorum needs ${needed}: step-up requests that need more stay pending until they expire`,
        fix: 'enrol passkeys: `rampart passkeys enrol-link --user U…` for the first, then /passkey approved by another approver',
      };
}
