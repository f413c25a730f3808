/**
 * New beneficiary (issue 5): chosen identity; a Nigerian account looked up first and confirmed
 * by its holder name, or a cross-border account; then an approval-gated request like a payment.
 */

import { randomUUID } from 'node:crypto';
import type { App, BlockButtonAction } from '@slack/bolt';
import { z } from 'zod';
import { ackThenAnnounce } from '../../app/post-request.js';
import { SubmitBudget } from '../../app/submit-budget.js';
import { checkNigerianAccount } from '../../domain/bank-account.js';
import { maskAccount } from '../../domain/personal-data.js';
import { isServiceError } from '../../service/errors.js';
import type { AccountLookup } from '../../service/schemas.js';
import {
  BENEFICIARY_ACTIONS,
  BENEFICIARY_CALLBACK,
  confirmMetaSchema,
  confirmModal,
  crossBorderModal,
  nigerianModal,
} from '../blocks/beneficiary.js';
import { errorBlocks } from '../blocks/common.js';
import { identityModal, resultModal } from '../blocks/identity.js';
import { NEW_BENEFICIARY_ACTION } from '../blocks/request-modal.js';
import { DeadlineError, withDeadline } from '../deadline.js';
import type { Deps } from '../deps.js';
import { describeError } from '../describe-error.js';
import { readMetadata } from '../metadata.js';
import { registerCrossBorderView } from './beneficiary-cross-border.js';
import {
  field,
  identityChoice,
  metaOf,
  readBeneficiaryMeta,
  requestBeneficiary,
  requestedView,
} from './beneficiary-request.js';

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

const LOOKUP_BUDGET_MS = 2_000;
const DRAFT_TTL_MS = 30 * 60_000;

export function registerBeneficiaryViews(app: App, deps: Deps): void {
  app.action<BlockButtonAction>(NEW_BENEFICIARY_ACTION, async ({ ack, body, client }) => {
    await ack();
    const meta = metaOf(body.view?.private_metadata ?? '');
    await client.views
      .push({ trigger_id: body.trigger_id, view: nigerianModal(meta) })
      .catch((err: unknown) => deps.log.error({ err }, 'could not push the beneficiary modal'));
  });

  app.action<BlockButtonAction>(BENEFICIARY_ACTIONS.newIdentity, async ({ ack, body, client }) => {
    await ack();
    await client.views
      .push({ trigger_id: body.trigger_id, view: identityModal({}) })
      .catch((err: unknown) => deps.log.error({ err }, 'could not push the identity modal'));
  });

  app.action<BlockButtonAction>(BENEFICIARY_ACTIONS.switchVariant, async ({ ack, body, client }) => {
    await ack();
    if (!body.view) return;
    const meta = metaOf(body.view.private_metadata);
    const next = body.view.callback_id === BENEFICIARY_CALLBACK.ng ? crossBorderModal(meta) : nigerianModal(meta);
    await client.views
      .update({ view_id: body.view.id, hash: body.view.hash, view: next })
      .catch((err: unknown) => deps.log.error({ err }, 'could not switch the beneficiary form'));
  });

  // Nigerian account: look it up, then show the holder name for confirmation.
  app.view(BENEFICIARY_CALLBACK.ng, async ({ ack, view, body }) => {
    const meta = readBeneficiaryMeta(view.private_metadata);
    if (!meta.ok) {
      await ack({ response_action: 'errors', errors: { reason: meta.problem } });
      return;
    }
    const v = view.state.values;
    const errors: Record<string, string> = {};
    const identity = await identityChoice(deps, v);
    if ('error' in identity) errors.identity = identity.error;
    const bankCode = field(v, 'bank_code');
    const accountNumber = field(v, 'account_number');
    const reason = field(v, 'reason');
    const account = checkNigerianAccount(bankCode, accountNumber);
    if ('errors' in account) Object.assign(errors, account.errors);
    if (reason.length < 3) errors.reason = 'Say why this payout destination is needed; approvers see it.';
    if (Object.keys(errors).length > 0 || 'error' in identity) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    let lookup: AccountLookup;
    try {
      lookup = await withDeadline(
        deps.service.lookupAccount({ bank_code: bankCode, account_number: accountNumber, currency: 'ngn' }),
        LOOKUP_BUDGET_MS,
      );
    } catch (err) {
      const notFound = isServiceError(err) && err.status === 404;
      const slow = err instanceof DeadlineError;
      const message = notFound
        ? `No account ending ${accountNumber.slice(-4)} at bank ${bankCode}; check both numbers.`
        : slow
          ? 'The bank lookup is slow right now; submit again in a moment.'
          : describeError(err);
      await ack({ response_action: 'errors', errors: { account_number: message } });
      return;
    }
    const token = randomUUID();
    const draft: Draft = {
      identityId: identity.id,
      identityName: identity.name,
      bankCode,
      bankName: lookup.bank_name,
      accountNumber,
      holderName: lookup.account_name,
      reason,
      requester: body.user.id,
      channel: meta.value.channel,
    };
    await deps.registry.saveDraft(token, draft, DRAFT_TTL_MS);
    await ack({
      response_action: 'update',
      view: confirmModal(token, {
        identityName: identity.name,
        bankName: lookup.bank_name,
        accountMasked: maskAccount(accountNumber),
        holderName: lookup.account_name,
      }),
    });
  });

  app.view(BENEFICIARY_CALLBACK.confirm, async ({ ack, view, body }) => {
    const budget = new SubmitBudget();
    const token = readMetadata(confirmMetaSchema, view.private_metadata);
    if (!token.ok) {
      await ack({ response_action: 'update', view: resultModal('New beneficiary', errorBlocks(token.problem)) });
      return;
    }
    const draft = draftSchema.safeParse(await deps.registry.loadDraft(token.value.token));
    if (!draft.success || draft.data.requester !== body.user.id) {
      // The draft is deleted once the form became a request: a repeated submit says which.
      const already = await deps.store.submittedAs(view.id);
      const said = already
        ? `This form was already sent for approval as ${already}; look for it in the approvals channel.`
        : 'This form has expired; start again with /beneficiary new.';
      await ack({ response_action: 'update', view: resultModal('New beneficiary', errorBlocks(said)) });
      return;
    }
    const d = draft.data;
    const r = await requestBeneficiary(
      deps,
      {
        submission: view.id,
        requester: d.requester,
        channel: d.channel,
        reason: d.reason,
        identity: { id: d.identityId, name: d.identityName },
        details: { bank_code: d.bankCode, account_number: d.accountNumber },
        display: {
          bankName: d.bankName,
          accountMasked: maskAccount(d.accountNumber),
          // The name the service's account lookup returned, never typed (issue 9 item 6).
          holderName: d.holderName,
          holderSource: 'lookup',
        },
      },
      budget,
    );
    if ('error' in r || !r.frozen) {
      await ack({
        response_action: 'update',
        view: resultModal('New beneficiary', errorBlocks(r.error ?? 'The request could not be made.')),
      });
      return;
    }
    const frozen = r.frozen;
    await ackThenAnnounce(deps, () => ack({ response_action: 'update', view: requestedView(deps, frozen.id) }), frozen);
    // Issue 9 item 12: the full account number lives on only in the request, masked once final.
    await deps.registry
      .deleteDraft(token.value.token)
      .catch((err: unknown) => deps.log.warn({ err }, 'could not delete the beneficiary draft; it expires by itself'));
  });
  registerCrossBorderView(app, deps);
}
