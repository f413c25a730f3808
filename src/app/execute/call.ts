/**
 * The call and the final move it decides: the sealed call, never anything else, sent once.
 * Only a call that provably never left is tried again; anything ambiguous ends in `unknown`.
 */
import type { RequestOutcome } from '../../domain/request.js';
import { failureFacts } from '../../service/classify.js';
import { addEntries } from '../destinations/add-entries.js';
import { newBeneficiaryCooldown } from '../destinations/beneficiary-cooling.js';
import { callService, recordSuccess, registerStated } from '../execution-effects.js';
import type { ExecuteResult } from './deps.js';
import type { Finish } from './finish.js';
import type { Run } from './run.js';

export async function call(run: Run, finish: Finish): Promise<ExecuteResult> {
  const { deps, executionId, started, shape } = run;
  const { sealed } = started;
  if (sealed.call.kind === 'address-book') {
    shape.refreshCard(run);
    const { ok, ...result } = await addEntries(deps, sealed, started.decidedBy);
    await finish.final(ok ? 'succeeded' : 'failed', result, result.message);
    return ok ? 'succeeded' : 'failed';
  }
  if (sealed.call.kind === 'register-beneficiary') {
    shape.refreshCard(run);
    const cooldownMs = await newBeneficiaryCooldown(deps);
    const { ok, ...result } = await registerStated({ ...deps, cooldownMs }, sealed, started.decidedBy);
    await finish.final(ok ? 'succeeded' : 'failed', result, result.message);
    return ok ? 'succeeded' : 'failed';
  }
  let outcome: RequestOutcome;
  try {
    const answer = callService(deps.service, sealed.call);
    // Undici writes on a kept-alive connection within the call's own ticks: "executing" after them.
    const stopShowing = shape.showExecuting(run);
    // Stopped the moment the call settles, before its outcome is recorded.
    outcome = await answer.finally(stopShowing);
  } catch (err) {
    // Stored as data; each edge writes its own sentence from it.
    const failure = failureFacts(err);
    switch (failure.class) {
      case 'never-sent':
        deps.log.warn({ executionId, err }, 'execute: the call was never sent');
        return finish.notSent({ failure }, 'not sent; will retry');
      case 'refused':
        deps.log.warn({ executionId, err }, 'execute: the call was refused; nothing moved');
        await finish.final('failed', { failure }, 'refused');
        return 'failed';
      case 'ambiguous':
        // 5xx, time-out, reset, unreadable answer: it may have happened, so never again.
        deps.log.error({ executionId, err }, 'execute: outcome unknown');
        await finish.final('unknown', { failure }, 'no clear answer from the service');
        return 'unknown';
    }
  }
  await finish.final('succeeded', outcome, undefined, () =>
    recordSuccess(
      {
        registry: deps.registry,
        now: deps.now,
        addPayee: (c, r) => deps.store.addPayee(c, r),
        beneficiaryCooldown: () => newBeneficiaryCooldown(deps),
      },
      sealed,
      outcome,
      started.decidedBy,
    ),
  );
  return 'succeeded';
}
