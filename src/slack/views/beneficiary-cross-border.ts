/** The cross-border beneficiary form (spec 2.10 variant 2): every BankAddress field is required. */
import type { App } from '@slack/bolt';
import { ackThenAnnounce } from '../../app/post-request.js';
import { SubmitBudget } from '../../app/submit-budget.js';
import { crossBorderDestination } from '../../domain/destination.js';
import { maskAccount } from '../../domain/personal-data.js';
import { ADDRESS_FIELDS, BENEFICIARY_CALLBACK, CROSS_BORDER_FIELDS } from '../blocks/beneficiary.js';
import type { Deps } from '../deps.js';
import {
  field,
  identityChoice,
  readBeneficiaryMeta,
  requestBeneficiary,
  requestedView,
} from './beneficiary-request.js';

export function registerCrossBorderView(app: App, deps: Deps): void {
  app.view(BENEFICIARY_CALLBACK.xb, async ({ ack, view, body }) => {
    const budget = new SubmitBudget();
    const meta = readBeneficiaryMeta(view.private_metadata);
    if (!meta.ok) {
      await ack({ response_action: 'errors', errors: { reason: meta.problem } });
      return;
    }
    const v = view.state.values;
    const errors: Record<string, string> = {};
    const identity = await identityChoice(deps, v);
    if ('error' in identity) errors.identity = identity.error;
    const details: Record<string, unknown> = {};
    for (const [id] of CROSS_BORDER_FIELDS) {
      const value = field(v, id);
      if (value) details[id] = value;
    }
    if (!details.account_number && !details.iban)
      errors.account_number = 'Give the account number or, in Europe, the IBAN.';
    const address: Record<string, unknown> = {};
    for (const [id, label] of ADDRESS_FIELDS) {
      const value = field(v, `addr_${id}`);
      if (!value) errors[`addr_${id}`] = `${label} is required in the bank address.`;
      else if (id === 'house_no' && !/^\d+$/.test(value)) errors.addr_house_no = 'The house number must be a number.';
      else address[id] = id === 'house_no' ? Number(value) : value;
    }
    details.bank_address = address;
    const reason = field(v, 'reason');
    if (reason.length < 3) errors.reason = 'Say why this payout destination is needed; approvers see it.';
    if (Object.keys(errors).length > 0 || 'error' in identity) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    const account = String(details.account_number ?? details.iban);
    const r = await requestBeneficiary(
      deps,
      {
        submission: view.id,
        requester: body.user.id,
        channel: meta.value.channel,
        reason,
        identity,
        details,
        display: {
          bankName: String(details.bank_name ?? 'bank abroad'),
          accountMasked: maskAccount(account),
          holderName: String(details.account_name ?? 'not given'),
          // Typed by the requester: no lookup exists for these accounts (issue 9 item 6).
          holderSource: 'typed',
          destination: crossBorderDestination(details),
        },
      },
      budget,
    );
    if ('error' in r || !r.frozen) {
      await ack({ response_action: 'errors', errors: { reason: r.error ?? 'The request could not be made.' } });
      return;
    }
    const frozen = r.frozen;
    await ackThenAnnounce(deps, () => ack({ response_action: 'update', view: requestedView(deps, frozen.id) }), frozen);
  });
}
