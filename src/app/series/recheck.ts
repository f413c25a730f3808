/**
 * The checks before a series' run is created: the wallet's funds for one run, and today's rules
 * compared with what the series was approved under. Each answers a reason, or undefined to go on.
 */
import type { SealedRequest } from '../../domain/request.js';
import {
  runFundsRule,
  runRecheckRule,
  type SeriesSubject,
  seriesPolicyRule,
  seriesStepUpRule,
} from '../../domain/rules/series.js';
import { cancelWindowMs } from '../../domain/timing.js';
import type { SeriesRunDeps } from './run-due.js';

/**
 * The wallet's balance for the run's asset, read now (a read error throws: the job tries again,
 * nothing was created). The reason when it cannot cover one run.
 */
export async function fundsShort(deps: SeriesRunDeps, sealed: SealedRequest, subject: SeriesSubject) {
  const { call } = sealed;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return undefined;
  const funds = runFundsRule(subject, await deps.service.getBalances(call.body.wallet_id));
  return funds.ok ? undefined : funds.message;
}

/**
 * Today's rules against what the series got, on its total as at submission: the policy tier,
 * step-up and the cancel window. Of the people, the approvers who approved it are asked again;
 * one still eligible is enough. Not re-read here: an API key's limits and the requester's
 * standing (passed as allowing).
 */
export async function recheck(
  deps: SeriesRunDeps,
  sealed: SealedRequest,
  subject: SeriesSubject,
  votes: readonly { user: string }[],
) {
  const policy = seriesPolicyRule(deps.config.policy, subject);
  const today = {
    required: policy.ok ? policy.required : Number.POSITIVE_INFINITY,
    stepUp: !seriesStepUpRule(deps.config.stepUp, subject).ok,
    delayed:
      cancelWindowMs(deps.config.time, {
        assetCode: subject.assetCode,
        amount: { units: subject.perRun.units * BigInt(subject.runs), decimals: subject.perRun.decimals },
        newDestination: subject.newDestination,
        entireBalance: false,
      }) !== undefined,
    keyAllows: true,
  };
  const approved = { required: sealed.requiredApprovals, stepUp: sealed.stepUp === true, delayed: !!sealed.timing };
  const approversEligible = await Promise.all(votes.map((v) => deps.approvers.isApprover(v.user)));
  const outcome = runRecheckRule(approved, today, { requesterEligible: true, approversEligible });
  return outcome.ok ? undefined : outcome.code;
}
