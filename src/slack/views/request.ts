/**
 * Submission of the transfer/offramp modal: field errors on the modal itself, or a frozen
 * pending request and a card in the approvals channel. Nothing reaches the service here.
 */
import type { App, ViewStateValue } from '@slack/bolt';
import { z } from 'zod';
import { amountFromNumber, amountToWire, formatAmount, subtractAmounts } from '../../domain/amount.js';
import { CHAINS } from '../../domain/assets.js';
import { type Draft, type FieldErrors, validateDraft } from '../../domain/draft.js';
import { evaluatePolicy } from '../../domain/policy.js';
import type { RequestDisplay, ServiceCall } from '../../domain/request.js';
import type { BalanceEntry, Wallet } from '../../service/schemas.js';
import { REQUEST_CALLBACK } from '../blocks/request-modal.js';
import { DeadlineError, withDeadline } from '../deadline.js';
import type { Deps } from '../deps.js';
import { describeError } from '../describe-error.js';
import { announce, freezeRequest } from '../post-request.js';

const meta = z.object({ kind: z.enum(['transfer', 'offramp']), channel: z.string() });

/** Slack allows 3 s for the answer; the balance check must fit well inside it. */
const CHECK_BUDGET_MS = 2_000;

type Values = Record<string, Record<string, ViewStateValue>>;
// Each input's action_id is its block_id (unique in the view).
const text = (v: Values, block: string) => v[block]?.[block]?.value ?? undefined;
const selected = (v: Values, block: string) => v[block]?.[block]?.selected_option?.value ?? undefined;

interface Checked {
  errors?: FieldErrors;
  display?: RequestDisplay;
}

/** Live checks against the service: wallet active, capability on, amount within available. */
async function checkAgainstWallet(deps: Deps, draft: Draft): Promise<Checked> {
  let wallet: Wallet;
  let balances: BalanceEntry[];
  try {
    [wallet, balances] = await withDeadline(
      Promise.all([deps.service.getWallet(draft.walletId), deps.service.getBalances(draft.walletId)]),
      CHECK_BUDGET_MS,
    );
  } catch (err) {
    const message =
      err instanceof DeadlineError
        ? 'The wallet service is slow to answer, so the balance could not be checked; submit again in a moment.'
        : describeError(err);
    return { errors: { wallet: message } };
  }
  if (!wallet.is_active)
    return { errors: { wallet: `Wallet ${draft.walletAlias} is inactive; nothing can be sent from it.` } };
  if (!wallet[draft.kind])
    return {
      errors: {
        wallet: `${draft.kind === 'transfer' ? 'Transfers' : 'Offramps'} are turned off for wallet ${draft.walletAlias}.`,
      },
    };
  const entry = balances.find((b) => b.id === draft.asset.id);
  if (!entry)
    return { errors: { asset: `Wallet ${draft.walletAlias} holds no ${draft.asset.id}; choose an asset it holds.` } };
  const available = amountFromNumber(entry.available, draft.asset.decimals);
  if (available.units <= 0n)
    return { errors: { amount: `Nothing is available of ${draft.asset.code} on ${draft.walletAlias} right now.` } };
  if (draft.amount && draft.amount.units > available.units) {
    return {
      errors: { amount: `Only ${formatAmount(available)} ${draft.asset.code} is available on ${draft.walletAlias}.` },
    };
  }
  const after = draft.amount ? subtractAmounts(available, draft.amount) : { units: 0n, decimals: available.decimals };
  const chainKind = CHAINS[draft.asset.chain].kind;
  const display: RequestDisplay = {
    walletAlias: draft.walletAlias,
    walletAddress: chainKind === 'evm' ? wallet.address.evm : wallet.address.svm,
    amountText: draft.amount ? formatAmount(draft.amount) : 'entire available balance',
    assetCode: draft.asset.code,
    chain: draft.asset.chain,
    availableBefore: formatAmount(available),
    availableAfter: formatAmount(after),
  };
  if (draft.kind === 'transfer' && draft.receiver)
    display.newReceiver = !(await deps.store.knownPayee(draft.asset.chain, draft.receiver));
  if (draft.kind === 'offramp' && draft.beneficiaryId) {
    // Only beneficiaries approved through Rampart are payout choices (issue 5).
    const entry = await deps.registry.beneficiary(draft.beneficiaryId);
    if (!entry)
      return {
        errors: {
          beneficiary: 'Choose a beneficiary from the list; only beneficiaries approved in Rampart can be paid.',
        },
      };
    display.beneficiaryLabel = entry.label;
    display.holderName = entry.holderName;
  }
  return { display };
}

export function frozenCall(draft: Draft): ServiceCall {
  // spec 4.2: -1 transfers the entire available balance.
  const amount = draft.amount ? amountToWire(draft.amount) : -1;
  if (draft.kind === 'transfer') {
    return {
      kind: 'transfer',
      body: { wallet_id: draft.walletId, amount, receiver: draft.receiver ?? '', asset: draft.asset.id },
    };
  }
  return {
    kind: 'offramp',
    body: { wallet_id: draft.walletId, amount, beneficiary_id: draft.beneficiaryId ?? '', asset: draft.asset.id },
  };
}

export function registerRequestViews(app: App, deps: Deps): void {
  for (const kind of ['transfer', 'offramp'] as const) {
    app.view(REQUEST_CALLBACK[kind], async ({ ack, view, body }) => {
      const m = meta.safeParse(JSON.parse(view.private_metadata || 'null'));
      const v = view.state.values;
      const result = validateDraft(
        {
          kind,
          wallet: selected(v, 'wallet'),
          asset: selected(v, 'asset'),
          amount: text(v, 'amount'),
          entireBalance: (v.entire?.entire?.selected_options?.length ?? 0) > 0,
          receiver: text(v, 'receiver'),
          beneficiary: selected(v, 'beneficiary'),
          reason: text(v, 'reason'),
        },
        deps.config.wallets,
      );
      if ('errors' in result) {
        await ack({ response_action: 'errors', errors: result.errors as Record<string, string> });
        return;
      }
      const draft = result.draft;
      const checked = await checkAgainstWallet(deps, draft);
      if (checked.errors || !checked.display) {
        await ack({ response_action: 'errors', errors: (checked.errors ?? {}) as Record<string, string> });
        return;
      }
      const policy = evaluatePolicy(deps.config.policy, {
        kind,
        assetCode: draft.asset.code,
        ...(draft.amount ? { amount: draft.amount } : {}),
      });
      if (!policy.ok) {
        await ack({
          response_action: 'errors',
          errors: { amount: `This request cannot be approved: ${policy.reason}.` },
        });
        return;
      }
      const frozen = await freezeRequest(deps, {
        call: frozenCall(draft),
        display: checked.display,
        requester: body.user.id,
        reason: draft.reason,
        origin: m.success ? m.data.channel : undefined,
        required: policy.required,
        rule: policy.rule,
        submission: view.id,
      });
      await ack({ response_action: 'clear' });
      if (frozen) await announce(deps, frozen);
      else deps.log.warn({ viewId: view.id }, 'the same form was submitted again; no second request');
    });
  }
}
