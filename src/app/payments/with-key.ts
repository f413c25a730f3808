/**
 * A transfer or offramp requested with an API key: the key's limits, the freeze, the
 * known-payees rule for keys without --allow-new-destinations (domain/api-rules.ts), then the
 * same use case as the Slack modal (submitRequest), the key's index and the card (announce).
 * The outcome names which rule refused; the HTTP API phrases it.
 */
import { type KeyRefusal, keyLimitRefusal } from '../../domain/api-key.js';
import {
  freezeOutcome,
  type KeyActor,
  type NewDestinationOutcome,
  newDestinationOutcome,
} from '../../domain/api-rules.js';
import type { Draft, FieldErrors } from '../../domain/draft.js';
import type { ApiVia } from '../../domain/open-caps.js';
import type { SealedRequest } from '../../domain/request.js';
import type { ScreeningRefusal } from '../../domain/rules/screening.js';
import { type SeriesKeyRefusal, seriesKeyRefusal } from '../../domain/rules/series.js';
import type { ScheduleField, ScheduleInput, SealedSchedule } from '../../domain/schedule.js';
import { apiPortsOf } from '../api-keys/ports.js';
import { withDeadline } from '../deadline.js';
import type { FacadeDeps } from '../facade-deps.js';
import { announce } from '../post-request.js';
import { submitRequest } from '../submit-request.js';
import { sealScheduleNow } from './seal-schedule.js';

export type KeySubmitOutcome =
  /** The key's fixed limits: the same body always gets it. */
  | { kind: 'key_limit'; refusal: KeyRefusal | SeriesKeyRefusal }
  /** The series' schedule as sent cannot be run: one sentence on the field it names. */
  | { kind: 'schedule'; field: ScheduleField; message: string }
  | { kind: 'frozen'; code: 'frozen'; message: string }
  | { kind: 'new_destination'; refusal: Extract<NewDestinationOutcome, { ok: false }> }
  | { kind: 'invalid'; errors: FieldErrors; refusal?: 'policy' | 'velocity' | 'too_many_open' | ScreeningRefusal }
  /** The wallet service could not be asked: nothing submitted. */
  | { kind: 'unchecked' }
  /** Redis did not store it in time: nothing submitted. */
  | { kind: 'nothing' }
  /** Made now, or made before under the same claim (its answer was lost). */
  | { kind: 'created'; sealed: SealedRequest };

export interface KeySubmission {
  kind: 'transfer' | 'offramp';
  /** The body as its fields read (the door parsed them). */
  draft: Draft;
  /** The amount as written, for the key's --max-amount. */
  amount: string | undefined;
  /** The create claim's name (one Idempotency-Key generation makes at most one request). */
  submission: string;
  /** run_at as the door read it (undefined: not a moment); shown in SCHEDULE_ZONE. */
  runAt?: number | undefined;
  /** A series: its schedule as sent (the key then needs schedules:create; limits judge the total). */
  schedule?: ScheduleInput | undefined;
}

/**
 * What a key's limits judge of a series: one run's amount, times its runs (the door read the
 * amount; none for "entire balance", which the key's --max-amount then refuses).
 */
const seriesSubject = (draft: Draft, runs: number) => ({
  kind: draft.kind,
  wallet: draft.walletAlias,
  asset: draft.asset.id,
  assetCode: draft.asset.code,
  perRun: draft.amount,
  runs,
  newDestination: false,
});

/** The key as the card names it, with its --max-open (held by the create script). */
export const viaKey = (actor: KeyActor): ApiVia => ({ ...actor.key, maxOpen: actor.apiKey.limits.maxOpen });

export async function submitWithKey(deps: FacadeDeps, actor: KeyActor, s: KeySubmission): Promise<KeySubmitOutcome> {
  const key = actor.apiKey;
  const { draft } = s;
  let schedule: SealedSchedule | undefined;
  if (s.schedule) {
    const sealed = sealScheduleNow(deps, s.schedule);
    if (!sealed.ok) return { kind: 'schedule', field: sealed.field, message: sealed.message };
    schedule = sealed.schedule;
    const refusal = seriesKeyRefusal(key, seriesSubject(draft, schedule.runs.length), deps.now());
    if (refusal) return { kind: 'key_limit', refusal };
  }
  const limit = keyLimitRefusal(key, { wallet: draft.walletAlias, asset: draft.asset.id, amount: s.amount ?? '' });
  if (limit) return { kind: 'key_limit', refusal: limit };
  const frozen = freezeOutcome(await deps.controls.freeze());
  if (!frozen.ok) return { kind: 'frozen', code: frozen.code, message: frozen.message };
  if (draft.kind === 'transfer' && draft.receiver && !key.limits.allowNewDestinations) {
    const known = await deps.store.knownPayee(draft.asset.chain, draft.receiver);
    const fresh = newDestinationOutcome(key, [{ known }]);
    if (!fresh.ok) return { kind: 'new_destination', refusal: fresh };
  }
  const outcome = await submitRequest(
    { ...deps, withinBudget: (work) => withDeadline(work, apiPortsOf(deps).checkBudgetMs) },
    {
      input: {
        kind: s.kind,
        wallet: draft.walletAlias,
        asset: draft.asset.id,
        amount: s.amount,
        entireBalance: false,
        receiver: draft.receiver,
        beneficiary: draft.beneficiaryId,
        reason: draft.reason,
      },
      // The key's owner is the requester of what it makes.
      requester: actor.user,
      origin: undefined,
      submission: s.submission,
      via: viaKey(actor),
      ...('runAt' in s ? { runAt: { at: s.runAt, zone: deps.config.time.zone } } : {}),
      ...(schedule ? { schedule } : {}),
    },
  );
  switch (outcome.kind) {
    case 'invalid':
      return outcome;
    case 'unchecked':
      deps.log.warn({ err: outcome.error, apiKey: key.name }, 'API request not checked: the wallet service failed');
      return { kind: 'unchecked' };
    case 'nothing':
      return outcome;
    case 'duplicate':
      return recoverWithKey(deps, actor, outcome.id);
    case 'submitted':
      await deps.apiKeys.recordRequest(key.owner, outcome.sealed.id, outcome.sealed.createdAt);
      await announce(deps, outcome.sealed);
      return { kind: 'created', sealed: outcome.sealed };
  }
}

/**
 * The create happened but its answer was lost (the process died, or an attempt is between the
 * create and its answer): the stored request, with the key's index and the card made sure of
 * (announce is safe to repeat: one card per request).
 */
export async function recoverWithKey(
  deps: FacadeDeps,
  actor: KeyActor,
  requestId: string,
): Promise<{ kind: 'created'; sealed: SealedRequest }> {
  const key = actor.apiKey;
  const record = await deps.store.get(requestId);
  if (!record) throw new Error(`request ${requestId} holds a claim but has no record`);
  await deps.apiKeys.recordRequest(key.owner, requestId, record.sealed.createdAt);
  if (record.state === 'pending') await announce(deps, record.sealed);
  return { kind: 'created', sealed: record.sealed };
}
