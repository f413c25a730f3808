/**
 * The checks before a series' run is created, each run judged as a fresh request would be.
 * `freshChecks`: the wallet's funds (its balance less what approved payments not yet sent commit
 * from it), the address book and screening — a failure skips the run with its reason in the
 * series' thread. `recheck`: today's rules compared with what the series got (policy, step-up,
 * the cancel window, its API key, its requester and approvers) — a refusal skips the run and
 * pauses the series until a fresh approval. Each answers a reason, or undefined to go on.
 */

import { beneficiaryCoolingSentence } from '../../domain/address-book.js';
import { assetInfo } from '../../domain/assets.js';
import { callDestination } from '../../domain/destination-key.js';
import type { SealedRequest } from '../../domain/request.js';
import {
  type RunRefusal,
  runFundsRule,
  runKeyRule,
  runRecheckRule,
  runRecheckSentence,
  type SeriesSubject,
  seriesPolicyRule,
  seriesStepUpRule,
} from '../../domain/rules/series.js';
import { seriesTotal } from '../../domain/series.js';
import { cancelWindowMs } from '../../domain/timing.js';
import type { ApiKeyStore } from '../../store/api-keys.js';
import type { OwnerDirectory } from '../api-keys/ports.js';
import { commitmentsOn } from '../commitments.js';
import type { AppDeps } from '../deps.js';
import { coolingBeneficiary } from '../destinations/beneficiary-cooling.js';
import { checkDestination } from '../destinations/check.js';
import { screenKeys } from '../screening.js';
import type { SeriesRunDeps } from './run-due.js';

/**
 * What a run's re-check reads beyond a worker's stores. The worker role passes both; without
 * them the check cannot be made, so a series made with a key is refused (never waved through)
 * and a requester's standing is not asked.
 */
export interface RecheckPorts {
  /** The API keys, to read the key a series was made with as it is now. */
  apiKeys?: Pick<ApiKeyStore, 'get'> | undefined;
  /** Whether a person is still an active member of the workspace (Slack's users.info). */
  people?: OwnerDirectory | undefined;
  /** SCREENING_URL's client, asked beside the list as at submission. */
  screeningService?: AppDeps['screeningService'];
}

type Deps = SeriesRunDeps & RecheckPorts;

/**
 * A fresh request's checks on one run, judged in the order a submission makes them: the funds
 * (the balance read now, less what approved payments not yet sent commit), then for a transfer
 * its destination against the address book (DESTINATIONS) and the screening list, through the
 * same functions a submission uses. A read error throws: the job tries again, nothing was
 * created. The sentence the run is skipped with when one fails.
 */
export async function freshChecks(deps: Deps, sealed: SealedRequest, subject: SeriesSubject) {
  const { call } = sealed;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return undefined;
  const walletId = call.body.wallet_id;
  // Every read side by side (the run waits on them all); judged below in a submission's order.
  const key = call.kind === 'transfer' ? callDestination(call)?.key : undefined;
  const beneficiary = call.kind === 'offramp' ? call.body.beneficiary_id : undefined;
  const { registry } = deps;
  const [balances, committed, book, screened, cooling] = await Promise.all([
    deps.service.getBalances(walletId),
    commitmentsOn(deps.store, { walletId, asset: subject.asset, decimals: subject.perRun.decimals }),
    call.kind === 'transfer'
      ? checkDestination(deps, {
          chain: assetInfo(call.body.asset).chain,
          address: call.body.receiver,
          walletId,
          // A run never waits for an entry's cooling-off: it is skipped with the time.
          as: 'run',
          ownWallet: sealed.display.ownWallet !== undefined,
        })
      : undefined,
    key === undefined ? undefined : screenKeys(deps, [key]),
    beneficiary && registry ? coolingBeneficiary({ registry }, beneficiary, deps.now()) : undefined,
  ]);
  const funds = runFundsRule(subject, balances, committed);
  if (!funds.ok) return funds.message;
  if (book && !book.ok) return book.message;
  // A new beneficiary still cooling off: the run is skipped with the time (it never waits).
  if (cooling)
    return beneficiaryCoolingSentence(sealed.display.beneficiaryLabel ?? beneficiary ?? '', cooling.usableAt, 'run');
  return key === undefined ? undefined : screened?.refused.get(key);
}

/**
 * Today's rules against what the series got, on its total as at submission: the policy tier,
 * step-up and the cancel window; the API key it was made with (if any) as it is now; its
 * requester still an active member; of the approvers who approved it, one still eligible.
 */
export async function recheck(
  deps: Deps,
  sealed: SealedRequest,
  subject: SeriesSubject,
  votes: readonly { user: string }[],
): Promise<RunRefusal | undefined> {
  const now = deps.now();
  const policy = seriesPolicyRule(deps.config.policy, subject);
  const via = sealed.display.viaApi;
  // The key, the requester and the approvers are read side by side.
  const [stored, requesterEligible, approversEligible] = await Promise.all([
    via && deps.apiKeys ? deps.apiKeys.get(via.keyId) : undefined,
    deps.people ? deps.people.isActive(sealed.requester) : true,
    Promise.all(votes.map((v) => deps.approvers.isApprover(v.user))),
  ]);
  const key = via
    ? deps.apiKeys
      ? runKeyRule(via.keyName, stored?.key, subject, now)
      : { ok: false as const, code: 'key_limit' as const, message: `API key ${via.keyName} could not be read` }
    : undefined;
  const today = {
    required: policy.ok ? policy.required : Number.POSITIVE_INFINITY,
    stepUp: !seriesStepUpRule(deps.config.stepUp, subject).ok,
    delayed:
      cancelWindowMs(deps.config.time, {
        assetCode: subject.assetCode,
        amount: seriesTotal(subject.perRun, subject.runs),
        newDestination: subject.newDestination,
        entireBalance: false,
      }) !== undefined,
    keyAllows: key?.ok !== false,
  };
  const approved = { required: sealed.requiredApprovals, stepUp: sealed.stepUp === true, delayed: !!sealed.timing };
  const outcome = runRecheckRule(approved, today, { requesterEligible, approversEligible });
  if (outcome.ok) return undefined;
  const why = runRecheckSentence(outcome.code, {
    policy: deps.config.policy,
    assetCode: subject.assetCode,
    required: today.required,
    requester: sealed.requester,
    ...(key && !key.ok ? { key: key.message } : {}),
  });
  return { code: outcome.code, why };
}
