/**
 * A new beneficiary (spec 4.3): for a chosen identity, a Nigerian account looked up
 * with the service and confirmed by its holder's name, or a cross-border account (spec 2.10
 * variant 2); either way an approval-gated request like a payment. No Bolt, no WebClient:
 * outcomes the edge phrases.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { checkNigerianAccount } from '../domain/bank-account.js';
import { type BeneficiaryFormErrors, checkCrossBorderForm, reasonProblem } from '../domain/beneficiary-form.js';
import { crossBorderDestination, type Destination, type HolderSource } from '../domain/destination.js';
import { shortId } from '../domain/identity-query.js';
import { maskAccount } from '../domain/personal-data.js';
import { evaluatePolicy } from '../domain/policy.js';
import type { SealedRequest } from '../domain/request.js';
import { needsStepUp } from '../domain/step-up.js';
import type { ServiceClient } from '../service/client.js';
import { isServiceError } from '../service/errors.js';
import { createBeneficiaryRequest, describeZodError } from '../service/schemas.js';
import { DeadlineError, withDeadline } from './deadline.js';
import type { AppDeps } from './deps.js';
import { chosenIdentity, type IdentityRefusal } from './identities.js';
import { sealRequest } from './post-request.js';
import type { SubmitBudget } from './submit-budget.js';

export type AddBeneficiaryDeps = Pick<AppDeps, 'config' | 'store' | 'registry' | 'log' | 'now'> & {
  /** Only the account lookup: the beneficiary itself is created by the approved request's execution. */
  service: Pick<ServiceClient, 'lookupAccount'>;
};

const LOOKUP_BUDGET_MS = 2_000;
const DRAFT_TTL_MS = 30 * 60_000;

/** The looked-up account waiting for the requester's confirmation (Redis, 30 minutes). */
const draftSchema = z.object({
  identityId: z.string(),
  identityName: z.string(),
  bankCode: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  holderName: z.string(),
  reason: z.string(),
  requester: z.string(),
  channel: z.string().optional(),
});
type Draft = z.infer<typeof draftSchema>;

interface Chosen {
  id: string;
  name: string;
}

/** Field errors, and why the identity (if it was one of the problems) cannot be chosen. */
export interface Invalid {
  kind: 'invalid';
  errors: BeneficiaryFormErrors;
  identity?: IdentityRefusal;
}

/** What a request that did not become a sealed one says; `submitted` otherwise. */
export type RequestOutcome =
  /** The body or the policy refused it (one sentence). */
  | { kind: 'refused'; reason: string }
  /** This form already became request `id` (a repeated submit). */
  | { kind: 'duplicate'; id: string }
  /** Redis did not answer in time and nothing was stored, nor will be. */
  | { kind: 'nothing' }
  | { kind: 'submitted'; sealed: SealedRequest };

async function chooseIdentity(
  deps: AddBeneficiaryDeps,
  value: string | undefined,
): Promise<Chosen | { why: IdentityRefusal }> {
  const chosen = await chosenIdentity(deps, value);
  if (!chosen.ok) return { why: chosen.why };
  return { id: chosen.entry.id, name: chosen.entry.name || `identity ${shortId(chosen.entry.id)}` };
}

export interface NigerianForm {
  /** The picker's value; undefined when none (or not an identity) was chosen. */
  identity: string | undefined;
  bankCode: string;
  accountNumber: string;
  reason: string;
  requester: string;
  channel: string | undefined;
}

export type LookupOutcome =
  | Invalid
  | { kind: 'not-found'; bankCode: string; last4: string }
  | { kind: 'slow' }
  | { kind: 'unavailable'; error: unknown }
  /** Show the holder for confirmation; `token` names the draft `confirmBeneficiary` reads. */
  | {
      kind: 'confirm';
      token: string;
      identityName: string;
      bankName: string;
      accountMasked: string;
      holderName: string;
    };

/** Step 1 of a Nigerian account: checked, looked up within Slack's 3 s, kept as a draft. */
export async function lookupNigerianBeneficiary(deps: AddBeneficiaryDeps, f: NigerianForm): Promise<LookupOutcome> {
  const identity = await chooseIdentity(deps, f.identity);
  const errors: BeneficiaryFormErrors = {};
  const account = checkNigerianAccount(f.bankCode, f.accountNumber);
  if ('errors' in account) Object.assign(errors, account.errors);
  const reason = reasonProblem(f.reason);
  if (reason) errors.reason = reason;
  if ('why' in identity) return { kind: 'invalid', errors, identity: identity.why };
  if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
  let lookup: Awaited<ReturnType<AppDeps['service']['lookupAccount']>>;
  try {
    lookup = await withDeadline(
      deps.service.lookupAccount({ bank_code: f.bankCode, account_number: f.accountNumber, currency: 'ngn' }),
      LOOKUP_BUDGET_MS,
    );
  } catch (err) {
    if (isServiceError(err) && err.status === 404)
      return { kind: 'not-found', bankCode: f.bankCode, last4: f.accountNumber.slice(-4) };
    if (err instanceof DeadlineError) return { kind: 'slow' };
    return { kind: 'unavailable', error: err };
  }
  const token = randomUUID();
  const draft: Draft = {
    identityId: identity.id,
    identityName: identity.name,
    bankCode: f.bankCode,
    bankName: lookup.bank_name,
    accountNumber: f.accountNumber,
    holderName: lookup.account_name,
    reason: f.reason,
    requester: f.requester,
    channel: f.channel,
  };
  await deps.registry.saveDraft(token, draft, DRAFT_TTL_MS);
  return {
    kind: 'confirm',
    token,
    identityName: identity.name,
    bankName: lookup.bank_name,
    accountMasked: maskAccount(f.accountNumber),
    holderName: lookup.account_name,
  };
}

/** Step 2: the requester confirmed the holder; the draft becomes a sealed request. */
export async function confirmNigerianBeneficiary(
  deps: AddBeneficiaryDeps,
  c: { token: string; user: string; submission: string },
  budget?: SubmitBudget,
): Promise<RequestOutcome | { kind: 'expired' }> {
  const draft = draftSchema.safeParse(await deps.registry.loadDraft(c.token));
  if (!draft.success || draft.data.requester !== c.user) {
    // The draft is deleted once the form became a request: a repeated submit says which.
    const already = await deps.store.submittedAs(c.submission);
    return already ? { kind: 'duplicate', id: already } : { kind: 'expired' };
  }
  const d = draft.data;
  return sealBeneficiary(
    deps,
    {
      submission: c.submission,
      requester: d.requester,
      channel: d.channel,
      reason: d.reason,
      identity: { id: d.identityId, name: d.identityName },
      details: { bank_code: d.bankCode, account_number: d.accountNumber },
      display: {
        bankName: d.bankName,
        accountMasked: maskAccount(d.accountNumber),
        // The name the service's account lookup returned, never typed.
        holderName: d.holderName,
        holderSource: 'lookup',
      },
    },
    budget,
  );
}

/** After the ack: the draft's full account number lives on only in the request. */
export async function forgetBeneficiaryDraft(deps: Pick<AddBeneficiaryDeps, 'registry' | 'log'>, token: string) {
  await deps.registry
    .deleteDraft(token)
    .catch((err: unknown) => deps.log.warn({ err }, 'could not delete the beneficiary draft; it expires by itself'));
}

export interface CrossBorderForm {
  identity: string | undefined;
  /** Every field of the form by block id (`addr_<field>` for the address), trimmed; '' when empty. */
  fields: Readonly<Record<string, string>>;
  reason: string;
  requester: string;
  channel: string | undefined;
  /** The form's view id: one submitted form makes at most one request. */
  submission: string;
}

/** A cross-border account (spec 2.10 variant 2): no lookup exists, so the holder is as typed. */
export async function submitCrossBorderBeneficiary(
  deps: AddBeneficiaryDeps,
  f: CrossBorderForm,
  budget?: SubmitBudget,
): Promise<RequestOutcome | Invalid> {
  const identity = await chooseIdentity(deps, f.identity);
  const { details, errors } = checkCrossBorderForm((id) => f.fields[id] ?? '');
  const reason = reasonProblem(f.reason);
  if (reason) errors.reason = reason;
  if ('why' in identity) return { kind: 'invalid', errors, identity: identity.why };
  if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
  const account = String(details.account_number ?? details.iban);
  return sealBeneficiary(
    deps,
    {
      submission: f.submission,
      requester: f.requester,
      channel: f.channel,
      reason: f.reason,
      identity,
      details,
      display: {
        bankName: String(details.bank_name ?? 'bank abroad'),
        accountMasked: maskAccount(account),
        holderName: String(details.account_name ?? 'not given'),
        // Typed by the requester: no lookup exists for these accounts.
        holderSource: 'typed',
        destination: crossBorderDestination(details),
      },
    },
    budget,
  );
}

interface Checked {
  requester: string;
  channel: string | undefined;
  reason: string;
  identity: Chosen;
  details: Record<string, unknown>;
  display: {
    bankName: string;
    accountMasked: string;
    holderName: string;
    holderSource: HolderSource;
    destination?: Destination;
  };
  submission: string;
}

/** The service's body checked now (zod), the policy applied, then sealed (spec 4.3). */
async function sealBeneficiary(deps: AddBeneficiaryDeps, s: Checked, budget?: SubmitBudget): Promise<RequestOutcome> {
  const checked = createBeneficiaryRequest.safeParse({
    currency: 'ngn',
    identity_id: s.identity.id,
    details: s.details,
  });
  if (!checked.success) return { kind: 'refused', reason: describeZodError(checked.error).message };
  const policy = evaluatePolicy(deps.config.policy, { kind: 'beneficiary' });
  if (!policy.ok) return { kind: 'refused', reason: policy.reason };
  const submitted = await sealRequest(
    deps,
    {
      call: { kind: 'beneficiary', body: checked.data },
      display: {
        identityLabel: `${s.identity.name} (${s.identity.id})`,
        beneficiaryLabel: `${s.display.bankName} ${s.display.accountMasked} · ${s.display.holderName}`,
        holderName: s.display.holderName,
        holderSource: s.display.holderSource,
        ...(s.display.destination ? { destination: s.display.destination } : {}),
        bankName: s.display.bankName,
        accountMasked: s.display.accountMasked,
      },
      requester: s.requester,
      reason: s.reason,
      origin: s.channel,
      required: policy.required,
      rule: policy.rule,
      stepUp: needsStepUp(deps.config.stepUp, { kind: 'beneficiary' }), // a new destination
      submission: s.submission,
    },
    budget,
  );
  if (submitted.kind === 'created') return { kind: 'submitted', sealed: submitted.sealed };
  if (submitted.kind === 'taken') return { kind: 'duplicate', id: submitted.id };
  if (submitted.kind === 'refused') return { kind: 'refused', reason: submitted.reason };
  return { kind: 'nothing' };
}
