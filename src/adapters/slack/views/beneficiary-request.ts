/**
 * What both beneficiary forms share at the Slack edge: reading the form, and phrasing the
 * outcomes of the add-beneficiary use cases (src/app/add-beneficiary.ts).
 */
import type { ViewStateValue } from '@slack/bolt';
import type { Invalid, RequestOutcome } from '../../../app/add-beneficiary.js';
import { type BeneficiaryMeta, beneficiaryMetaSchema } from '../blocks/beneficiary.js';
import { identityRefusal } from '../blocks/identity.js';
import { isNote } from '../blocks/identity-options.js';
import { NOTHING_SUBMITTED } from '../blocks/submitted.js';
import { readMetadata } from '../metadata.js';

export type Values = Record<string, Record<string, ViewStateValue>>;
export const field = (v: Values, id: string) => v[id]?.[id]?.value?.trim() ?? '';
/** Every text field of a form by block id, trimmed. */
export const fieldsOf = (v: Values): Record<string, string> =>
  Object.fromEntries(Object.keys(v).map((id) => [id, field(v, id)]));
/** The beneficiary forms' private_metadata; `metaOf` for buttons, where `{}` is enough. */
export const readBeneficiaryMeta = (raw: string | undefined) => readMetadata(beneficiaryMetaSchema, raw);
export const metaOf = (raw: string | undefined): BeneficiaryMeta => {
  const m = readBeneficiaryMeta(raw);
  return m.ok ? m.value : {};
};

const NOTE_CHOSEN = 'That line explains the search; choose an identity, or type its id to check it with the service.';

/** The identity picker's value, and whether it is one of the search's explanatory lines. */
export function identityPicked(v: Values): { value: string | undefined; note: boolean } {
  const value = v.identity?.identity?.selected_option?.value;
  // A note is not an identity: the use case sees none, the field says what the line was.
  return isNote(value) ? { value: undefined, note: true } : { value, note: false };
}

/** The field errors of an `invalid` outcome, the identity's phrased here. */
export function invalidErrors(o: Invalid, note: boolean): Record<string, string> {
  const errors: Record<string, string> = { ...o.errors };
  if (o.identity) errors.identity = note ? NOTE_CHOSEN : identityRefusal(o.identity);
  return errors;
}

/** Why a checked form did not become a request, in one sentence. */
export function notRequested(o: Exclude<RequestOutcome, { kind: 'submitted' }>): string {
  switch (o.kind) {
    case 'refused':
      return o.reason;
    case 'duplicate':
      return `This form was already sent for approval as ${o.id}; look for it in the approvals channel.`;
    case 'nothing':
      return NOTHING_SUBMITTED;
  }
}
