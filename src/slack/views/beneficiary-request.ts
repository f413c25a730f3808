/**
 * What both beneficiary forms share: reading the identity choice, and turning a checked form
 * into a frozen, approval-gated request (spec 4.3).
 */
import type { ViewStateValue } from '@slack/bolt';
import { chosenIdentity } from '../../app/identities.js';
import { freezeRequest } from '../../app/post-request.js';
import type { SubmitBudget } from '../../app/submit-budget.js';
import type { Destination, HolderSource } from '../../domain/destination.js';
import { shortId } from '../../domain/identity-query.js';
import { evaluatePolicy } from '../../domain/policy.js';
import { createBeneficiaryRequest, describeZodError } from '../../service/schemas.js';
import { type BeneficiaryMeta, beneficiaryMetaSchema } from '../blocks/beneficiary.js';
import { section, withSandboxNote } from '../blocks/common.js';
import { identityRefusal, resultModal } from '../blocks/identity.js';
import { isNote } from '../blocks/identity-options.js';
import { NOTHING_SUBMITTED } from '../blocks/submitted.js';
import type { Deps } from '../deps.js';
import { readMetadata } from '../metadata.js';

export type Values = Record<string, Record<string, ViewStateValue>>;
export const field = (v: Values, id: string) => v[id]?.[id]?.value?.trim() ?? '';
/** The beneficiary forms' private_metadata; `metaOf` for buttons, where `{}` is enough. */
export const readBeneficiaryMeta = (raw: string | undefined) => readMetadata(beneficiaryMetaSchema, raw);
export const metaOf = (raw: string | undefined): BeneficiaryMeta => {
  const m = readBeneficiaryMeta(raw);
  return m.ok ? m.value : {};
};

export async function identityChoice(deps: Deps, v: Values): Promise<{ id: string; name: string } | { error: string }> {
  const value = v.identity?.identity?.selected_option?.value;
  if (isNote(value))
    return { error: 'That line explains the search; choose an identity, or type its id to check it with the service.' };
  const chosen = await chosenIdentity(deps, value);
  if (chosen.ok) return { id: chosen.entry.id, name: chosen.entry.name || `identity ${shortId(chosen.entry.id)}` };
  return { error: identityRefusal(chosen.why) };
}

export interface Submitted {
  requester: string;
  channel: string | undefined;
  reason: string;
  identity: { id: string; name: string };
  details: Record<string, unknown>;
  display: {
    bankName: string;
    accountMasked: string;
    holderName: string;
    holderSource: HolderSource;
    destination?: Destination;
  };
  /** The form's view id: one submitted form makes at most one request. */
  submission: string;
}

export async function requestBeneficiary(deps: Deps, s: Submitted, budget?: SubmitBudget) {
  const body = { currency: 'ngn', identity_id: s.identity.id, details: s.details };
  const checked = createBeneficiaryRequest.safeParse(body);
  if (!checked.success) return { error: describeZodError(checked.error).message };
  const policy = evaluatePolicy(deps.config.policy, { kind: 'beneficiary' });
  if (!policy.ok) return { error: policy.reason };
  const submitted = await freezeRequest(
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
      submission: s.submission,
    },
    budget,
  );
  if (submitted.kind === 'created') return { frozen: submitted.frozen };
  if (submitted.kind === 'taken')
    return {
      error: `This form was already sent for approval as ${submitted.id}; look for it in the approvals channel.`,
    };
  return { error: NOTHING_SUBMITTED };
}

export const requestedView = (deps: Deps, id: string) =>
  resultModal(
    'New beneficiary',
    withSandboxNote(
      [
        section(
          `:hourglass_flowing_sand: *${id}* is waiting for approval in <#${deps.config.approvalsChannel}>. Once approved and created, the beneficiary appears in the offramp list.`,
        ),
      ],
      deps.sandbox,
    ),
  );
