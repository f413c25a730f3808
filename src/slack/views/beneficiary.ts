/**
 * New beneficiary (issue 5): chosen identity; a Nigerian account looked up first and confirmed
 * by its holder name, or a cross-border account; then an approval-gated request like a payment.
 */
import { randomUUID } from 'node:crypto';
import type { App, BlockButtonAction, ViewStateValue } from '@slack/bolt';
import { z } from 'zod';
import { evaluatePolicy } from '../../domain/policy.js';
import { isServiceError } from '../../service/errors.js';
import { type AccountLookup, createBeneficiaryRequest, describeZodError } from '../../service/schemas.js';
import {
  ADDRESS_FIELDS,
  BENEFICIARY_ACTIONS,
  BENEFICIARY_CALLBACK,
  CROSS_BORDER_FIELDS,
  confirmModal,
  crossBorderModal,
  nigerianModal,
} from '../blocks/beneficiary.js';
import { errorBlocks, section, withSandboxNote } from '../blocks/common.js';
import { identityModal, resultModal } from '../blocks/identity.js';
import { maskAccount } from '../blocks/rate.js';
import { NEW_BENEFICIARY_ACTION } from '../blocks/request-modal.js';
import type { Deps } from '../deps.js';
import { describeError } from '../describe-error.js';
import { announce, freezeRequest } from '../post-request.js';

type Values = Record<string, Record<string, ViewStateValue>>;
const field = (v: Values, id: string) => v[id]?.[id]?.value?.trim() ?? '';
const metaOf = (raw: string) =>
  z
    .object({ channel: z.string().optional() })
    .catch({})
    .parse(JSON.parse(raw || '{}'));

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

function deadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('deadline')), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

async function identityChoice(deps: Deps, v: Values): Promise<{ id: string; name: string } | { error: string }> {
  const id = v.identity?.identity?.selected_option?.value;
  if (!id) return { error: 'Choose the identity that owns this account, or create one with "New identity…".' };
  const entry = await deps.registry.identity(id);
  return entry ? { id, name: entry.name } : { error: 'Choose an identity created in Rampart.' };
}

interface Submitted {
  requester: string;
  channel: string | undefined;
  reason: string;
  identity: { id: string; name: string };
  details: Record<string, unknown>;
  display: { bankName: string; accountMasked: string; holderName: string };
  /** The form's view id: one submitted form makes at most one request. */
  submission: string;
}

async function requestBeneficiary(deps: Deps, s: Submitted) {
  const body = { currency: 'ngn', identity_id: s.identity.id, details: s.details };
  const checked = createBeneficiaryRequest.safeParse(body);
  if (!checked.success) return { error: describeZodError(checked.error).message };
  const policy = evaluatePolicy(deps.config.policy, { kind: 'beneficiary' });
  if (!policy.ok) return { error: policy.reason };
  const frozen = await freezeRequest(deps, {
    call: { kind: 'beneficiary', body: checked.data },
    display: {
      identityLabel: `${s.identity.name} (${s.identity.id})`,
      beneficiaryLabel: `${s.display.bankName} ${s.display.accountMasked} · ${s.display.holderName}`,
      holderName: s.display.holderName,
      bankName: s.display.bankName,
      accountMasked: s.display.accountMasked,
    },
    requester: s.requester,
    reason: s.reason,
    origin: s.channel,
    required: policy.required,
    rule: policy.rule,
    submission: s.submission,
  });
  return frozen
    ? { frozen }
    : { error: 'This form was already sent for approval; look for it in the approvals channel.' };
}

const requestedView = (deps: Deps, id: string) =>
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

  app.options('identity', async ({ ack, options }) => {
    const q = ('value' in options ? options.value : '').toLowerCase();
    const entries = (await deps.registry.identities())
      .filter((e) => `${e.name} ${e.id}`.toLowerCase().includes(q))
      .slice(0, 100);
    await ack({
      options: entries.map((e) => ({
        text: { type: 'plain_text', text: `${e.name} · BVN ••••${e.bvnLast4}`.slice(0, 75) },
        value: e.id,
      })),
    });
  });

  app.options('beneficiary', async ({ ack, options }) => {
    const entries = await deps.registry.searchBeneficiaries('value' in options ? options.value : '');
    await ack({
      options: entries.map((b) => ({ text: { type: 'plain_text', text: b.label.slice(0, 75) }, value: b.id })),
    });
  });

  // Nigerian account: look it up, then show the holder name for confirmation.
  app.view(BENEFICIARY_CALLBACK.ng, async ({ ack, view, body }) => {
    const v = view.state.values;
    const errors: Record<string, string> = {};
    const identity = await identityChoice(deps, v);
    if ('error' in identity) errors.identity = identity.error;
    const bankCode = field(v, 'bank_code');
    const accountNumber = field(v, 'account_number');
    const reason = field(v, 'reason');
    if (!/^\d{3,6}$/.test(bankCode)) errors.bank_code = 'A bank code is 3 to 6 digits, e.g. 058.';
    if (!/^\d{10}$/.test(accountNumber))
      errors.account_number = 'A Nigerian account number (NUBAN) has exactly 10 digits.';
    if (reason.length < 3) errors.reason = 'Say why this payout destination is needed; approvers see it.';
    if (Object.keys(errors).length > 0 || 'error' in identity) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    let lookup: AccountLookup;
    try {
      lookup = await deadline(
        deps.service.lookupAccount({ bank_code: bankCode, account_number: accountNumber, currency: 'ngn' }),
        LOOKUP_BUDGET_MS,
      );
    } catch (err) {
      const notFound = isServiceError(err) && err.status === 404;
      const slow = err instanceof Error && err.message === 'deadline';
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
      channel: metaOf(view.private_metadata).channel,
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
    const token = z.object({ token: z.string() }).safeParse(JSON.parse(view.private_metadata || '{}'));
    const draft = token.success ? draftSchema.safeParse(await deps.registry.loadDraft(token.data.token)) : undefined;
    if (!draft?.success || draft.data.requester !== body.user.id) {
      await ack({
        response_action: 'update',
        view: resultModal('New beneficiary', errorBlocks('This form has expired; start again with /beneficiary new.')),
      });
      return;
    }
    const d = draft.data;
    const r = await requestBeneficiary(deps, {
      submission: view.id,
      requester: d.requester,
      channel: d.channel,
      reason: d.reason,
      identity: { id: d.identityId, name: d.identityName },
      details: { bank_code: d.bankCode, account_number: d.accountNumber },
      display: { bankName: d.bankName, accountMasked: maskAccount(d.accountNumber), holderName: d.holderName },
    });
    if ('error' in r || !r.frozen) {
      await ack({
        response_action: 'update',
        view: resultModal('New beneficiary', errorBlocks(r.error ?? 'The request could not be made.')),
      });
      return;
    }
    await ack({ response_action: 'update', view: requestedView(deps, r.frozen.id) });
    await announce(deps, r.frozen);
  });

  // Cross-border account (spec 2.10 variant 2): every BankAddress field is required.
  app.view(BENEFICIARY_CALLBACK.xb, async ({ ack, view, body }) => {
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
    const r = await requestBeneficiary(deps, {
      submission: view.id,
      requester: body.user.id,
      channel: metaOf(view.private_metadata).channel,
      reason,
      identity,
      details,
      display: {
        bankName: String(details.bank_name ?? 'bank abroad'),
        accountMasked: maskAccount(account),
        holderName: String(details.account_name ?? 'not given'),
      },
    });
    if ('error' in r || !r.frozen) {
      await ack({ response_action: 'errors', errors: { reason: r.error ?? 'The request could not be made.' } });
      return;
    }
    await ack({ response_action: 'update', view: requestedView(deps, r.frozen.id) });
    await announce(deps, r.frozen);
  });
}
