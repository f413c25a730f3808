/**
 * submitRequest: a transfer or offramp as typed in a form becomes a sealed, pending request —
 * or the field errors that say why not. Live checks against the service (wallet active, capability
 * on, amount within available), the policy, then freeze and store (README "How a payment stays
 * safe"). Nothing reaches the service's money endpoints here. The edge acks, then calls
 * `announce` (app/post-request.ts) so the card and the expiry follow.
 */

import { destinationKey } from '../domain/destination-key.js';
import { type Draft, type DraftInput, type FieldErrors, type SealedDraft, validateDraft } from '../domain/draft.js';
import type { ApiVia } from '../domain/open-caps.js';
import { evaluatePolicy } from '../domain/policy.js';
import { PAID_BENEFICIARIES } from '../domain/repeats.js';
import type { RequestDisplay, SealedRequest } from '../domain/request.js';
import type { ScreeningRefusal } from '../domain/rules/screening.js';
import type { SealedSchedule } from '../domain/schedule.js';
import { seriesTotal } from '../domain/series.js';
import { sealedCall } from '../domain/service-call.js';
import { needsStepUp } from '../domain/step-up.js';
import { cancelWindowMs, scheduleRule, timingOf } from '../domain/timing.js';
import { checkDraftAgainstWallet } from '../domain/wallet-check.js';
import type { ServiceClient } from '../service/client.js';
import type { AppDeps } from './deps.js';
import { coolingBeneficiary } from './destinations/beneficiary-cooling.js';
import { checkDestination } from './destinations/check.js';
import { lookalikes } from './destinations/lookalikes.js';
import { ownWalletNamed, ownWallets } from './own-wallets.js';
import { sealRequest } from './post-request.js';
import { repeatsOfCall } from './repeats.js';
import { FORM_BUDGET_MS, screenKeys } from './screening.js';
import type { SubmitBudget } from './submit-budget.js';
import { checkVelocity } from './velocity.js';

export interface Submission {
  input: DraftInput;
  requester: string;
  /** Channel the request was made from, for the requester's confirmation. */
  origin: string | undefined;
  /** The form's id: one submitted form makes at most one request. */
  submission: string;
  /** Made through the HTTP API with this key (the card says so; requester is its owner). */
  via?: ApiVia;
  /**
   * Set for a time (When other than now, the API's run_at): the moment as the door read it
   * (undefined: not a time it could read) and the zone it was written in.
   */
  runAt?: { at: number | undefined; zone: string };
  /** A series (recurring payouts): its schedule sealed at the door; every amount rule judges its total. */
  schedule?: SealedSchedule;
}

export type SubmitOutcome =
  /** `refusal`: which rule refused it, for edges with their own codes. */
  | { kind: 'invalid'; errors: FieldErrors; refusal?: 'policy' | 'velocity' | 'too_many_open' | ScreeningRefusal }
  /** The wallet could not be checked: the service failed or was too slow (the edge phrases it). */
  | { kind: 'unchecked'; error: unknown }
  /** This form already became request `id` (a repeated submit): say so, never close silently. */
  | { kind: 'duplicate'; id: string }
  /** Redis did not answer in time and nothing was stored, nor will be: say so. */
  | { kind: 'nothing' }
  | { kind: 'submitted'; sealed: SealedRequest };

export type SubmitDeps = Pick<AppDeps, 'config' | 'store' | 'registry' | 'controls' | 'now' | 'log'> & {
  /** Only the reads a submission makes (the façade binds no money-moving call). */
  service: Pick<ServiceClient, 'getWallet' | 'getBalances' | 'getOnrampRate'>;
  /** Bounds the live checks, which run before Slack's 3 s ack (the edge decides the budget). */
  withinBudget<T>(work: Promise<T>): Promise<T>;
  /** Bounds the Redis work and the create itself; the edge starts it on arrival. */
  budget?: SubmitBudget;
};

type Checked =
  | { errors: FieldErrors; refusal?: ScreeningRefusal }
  | { draft: SealedDraft; display: RequestDisplay; availableUnits: string }
  | { unchecked: unknown }
  | { stalled: unknown };

/** Redis work before the create ends before the create's own deadline. */
const bounded = <T>(deps: SubmitDeps, work: Promise<T>): Promise<T> =>
  deps.budget ? deps.budget.beforeCreate(work) : work;

async function checkLive(deps: SubmitDeps, draft: Draft): Promise<Checked> {
  // In parallel with the wallet's facts, inside the same deadline; it never rejects.
  const context = readContext(deps, draft);
  let facts: [
    Awaited<ReturnType<AppDeps['service']['getWallet']>>,
    Awaited<ReturnType<AppDeps['service']['getBalances']>>,
  ];
  try {
    facts = await deps.withinBudget(
      Promise.all([deps.service.getWallet(draft.walletId), deps.service.getBalances(draft.walletId)]),
    );
  } catch (err) {
    return { unchecked: err };
  }
  const checked = checkDraftAgainstWallet(draft, ...facts);
  if ('errors' in checked) return checked;
  Object.assign(checked.display, await context);
  try {
    return await readRegistry(deps, checked.draft, checked.display, checked.availableUnits);
  } catch (err) {
    // Only Redis reads are left here: nothing is stored yet, so "nothing was submitted" is true.
    return { stalled: err };
  }
}

/**
 * A transfer to one of the team's own wallets says so; an offramp
 * shows an indicative naira figure. Both are best effort inside the same budget: a slow or
 * failing read only leaves the line out, never refuses the request.
 */
async function readContext(deps: SubmitDeps, draft: Draft): Promise<Partial<RequestDisplay>> {
  try {
    if (draft.kind === 'transfer' && draft.receiver) {
      const wallets = await deps.withinBudget(ownWallets(deps.service, deps.config.wallets, deps.now()));
      const own = ownWalletNamed(wallets, draft.walletAlias, draft.receiver);
      return own ? { ownWallet: own } : {};
    }
    if (draft.kind === 'offramp' && draft.asset.code !== 'cNGN')
      return { indicativeRate: (await deps.withinBudget(deps.service.getOnrampRate('NGN'))).rate };
  } catch (err) {
    deps.log.debug({ err }, 'submission context (own wallets, rate) not read; the card leaves it out');
  }
  return {};
}

async function readRegistry(
  deps: SubmitDeps,
  draft: SealedDraft,
  display: RequestDisplay,
  availableUnits: string,
): Promise<Checked> {
  // Earlier payments this one repeats, read beside the registry (no extra round trip).
  const repeating = bounded(deps, repeatsOfCall(deps, sealedCall(draft)));
  repeating.catch(() => {}); // awaited below; never an unhandled rejection if we return first
  // The receiver against the sanctions list, in the same turn (domain/rules/screening.ts).
  const receiverKey =
    draft.kind === 'transfer' && draft.receiver ? destinationKey(draft.asset.chain, draft.receiver) : undefined;
  const screening = receiverKey
    ? bounded(deps, screenKeys(deps, [receiverKey], { budgetMs: FORM_BUDGET_MS })).then((verdict) => ({
        verdict,
        key: receiverKey,
      }))
    : Promise.resolve(undefined);
  screening.catch(() => {});
  if (draft.kind === 'transfer' && draft.receiver) {
    // Side by side: the form's submission waits on all three before Slack's ack.
    const [known, book, [alike]] = await bounded(
      deps,
      Promise.all([
        deps.store.knownPayee(draft.asset.chain, draft.receiver),
        checkDestination(deps, {
          chain: draft.asset.chain,
          address: draft.receiver,
          walletId: draft.walletId,
          as: 'single',
          ownWallet: display.ownWallet !== undefined,
        }),
        lookalikes(deps, draft.asset.chain, [{ row: 1, destination: draft.receiver }]),
      ]),
    );
    display.newReceiver = !known;
    if (alike) display.lookalike = { of: alike.of, ofAddress: alike.ofAddress };
    // The address book's one verdict (DESTINATIONS), said on the receiver field.
    if (!book.ok) return { errors: { receiver: book.message } };
    if (book.warnNew) display.outsideBook = true;
    if (book.entry) {
      const { id, name, addedBy, approvedBy, approvedAt, usableAt } = book.entry;
      display.bookEntry = { id, name, addedBy, approvedBy, approvedAt, usableAt };
    }
  }
  if (draft.kind === 'offramp' && draft.beneficiaryId) {
    // Only beneficiaries approved through Rampart are payout choices. Registered is not
    // paid: a beneficiary no offramp ever reached is a new destination, read in the same turn.
    const [entry, paidBefore, cooling] = await bounded(
      deps,
      Promise.all([
        deps.registry.beneficiary(draft.beneficiaryId),
        deps.store.knownPayee(PAID_BENEFICIARIES, draft.beneficiaryId),
        coolingBeneficiary(deps, draft.beneficiaryId, deps.now()),
      ]),
    );
    if (!entry)
      return {
        errors: {
          beneficiary: 'Choose a beneficiary from the list; only beneficiaries approved in Rampart can be paid.',
        },
      };
    display.beneficiaryLabel = entry.label;
    if (!paidBefore) display.newReceiver = true;
    // A new beneficiary cools off as an entry does: approved, the offramp waits until then.
    if (cooling) {
      const { approvedAt, usableAt } = cooling;
      display.bookEntry = {
        id: entry.id,
        name: entry.label,
        addedBy: entry.createdBy,
        approvedBy: entry.approvedBy,
        approvedAt,
        usableAt,
        beneficiary: true,
      };
    }
    display.holderName = entry.holderName;
    if (entry.holderSource) display.holderSource = entry.holderSource;
    if (entry.holderSource === 'lookup') display.holderCheckedAt = entry.createdAt;
    if (entry.asStated) {
      // Registered as existing; every card says its details are only as stated.
      display.beneficiaryStatedBy = entry.createdBy;
      display.beneficiaryBank = `${entry.bankName} ${entry.accountMasked}`;
    }
  }
  const [repeats, screened] = await Promise.all([repeating, screening]);
  if (repeats.length > 0) display.repeats = repeats;
  if (screened) {
    const refused = screened.verdict.refused.get(screened.key);
    if (refused && screened.verdict.code) return { errors: { receiver: refused }, refusal: screened.verdict.code };
    const lines = screened.verdict.lines(screened.key);
    if (lines.length > 0) display.screening = lines;
  }
  return { draft, display, availableUnits };
}

export async function submitRequest(deps: SubmitDeps, s: Submission): Promise<SubmitOutcome> {
  const validated = validateDraft(s.input, deps.config.wallets);
  if ('errors' in validated) return { kind: 'invalid', errors: validated.errors };
  const set = setTime(deps, s);
  if ('errors' in set) return { kind: 'invalid', errors: set.errors };
  const checked = await checkLive(deps, validated.draft);
  if ('unchecked' in checked) return { kind: 'unchecked', error: checked.unchecked };
  if ('stalled' in checked) {
    deps.log.warn({ err: checked.stalled }, 'Redis did not answer the submission checks in time');
    return { kind: 'nothing' };
  }
  if ('errors' in checked)
    return { kind: 'invalid', errors: checked.errors, ...(checked.refusal ? { refusal: checked.refusal } : {}) };
  // From here on the amount is exact, an "entire balance" included: policy, velocity
  // and the sealed call all use the number the card shows.
  const { draft } = checked;
  // A series is judged on its total (what it can send in all); each run sends draft.amount.
  const judged = s.schedule ? seriesTotal(draft.amount, s.schedule.runs.length) : draft.amount;
  const policy = evaluatePolicy(deps.config.policy, {
    kind: draft.kind,
    assetCode: draft.asset.code,
    amount: judged,
  });
  if (!policy.ok)
    return {
      kind: 'invalid',
      errors: { amount: `This request cannot be approved: ${policy.reason}.` },
      refusal: 'policy',
    };
  // A request that would break a velocity limit is refused on the amount field.
  const call = sealedCall(draft);
  let velocity: Awaited<ReturnType<typeof checkVelocity>>;
  try {
    velocity = await bounded(
      deps,
      checkVelocity(
        { controls: deps.controls, rules: deps.config.controls.velocity, now: deps.now },
        { call, display: checked.display, availableUnits: checked.availableUnits },
      ),
    );
  } catch (err) {
    deps.log.warn({ err }, 'Redis did not answer the velocity check in time');
    return { kind: 'nothing' };
  }
  if (!velocity.ok) return { kind: 'invalid', errors: { amount: velocity.message }, refusal: 'velocity' };
  // The card names the key; its --max-open goes only to the create, which holds it.
  if (s.via) checked.display.viaApi = { keyId: s.via.keyId, keyName: s.via.keyName, owner: s.via.owner };
  const submitted = await sealRequest(
    deps,
    {
      availableUnits: checked.availableUnits,
      ...(velocity.note ? { velocityNote: velocity.note } : {}),
      call,
      display: checked.display,
      requester: s.requester,
      reason: draft.reason,
      origin: s.origin,
      required: policy.required,
      rule: policy.rule,
      // Decided on the sealed amount, once, and stored with the record.
      stepUp: needsStepUp(deps.config.stepUp, {
        kind: draft.kind,
        assetCode: draft.asset.code,
        amount: judged,
        // Outside the book in warn mode counts as a new destination (docs/destinations.md).
        newDestination:
          checked.display.newReceiver === true ||
          checked.display.outsideBook === true ||
          checked.display.lookalike !== undefined,
      }),
      submission: s.submission,
      ...(s.via ? { keyMaxOpen: s.via.maxOpen } : {}),
      // The cancel window (DELAY_*), decided here on the sealed amount and stored with the record.
      timing: timingOf(
        cancelWindowMs(deps.config.time, {
          assetCode: draft.asset.code,
          amount: judged,
          newDestination: checked.display.newReceiver === true,
          entireBalance: s.input.entireBalance,
        }),
        set.at === undefined ? undefined : { at: set.at, zone: set.zone ?? 'UTC' },
      ),
      ...(s.schedule ? { shape: 'series' as const, schedule: s.schedule } : {}),
    },
    deps.budget,
  );
  if (submitted.kind === 'created') return { kind: 'submitted', sealed: submitted.sealed };
  if (submitted.kind === 'taken') return { kind: 'duplicate', id: submitted.id };
  if (submitted.kind === 'refused')
    return { kind: 'invalid', errors: { reason: submitted.reason }, refusal: submitted.code };
  return { kind: 'nothing' };
}

/**
 * A time the payment is set for: in the future, within SCHEDULE_MAX_AHEAD, and never with
 * "entire balance" (what the wallet holds then is not what the approvers saw).
 */
function setTime(
  deps: Pick<SubmitDeps, 'config' | 'now'>,
  s: Submission,
): { at?: number; zone?: string } | { errors: FieldErrors } {
  if (s.schedule && s.input.entireBalance)
    return { errors: { amount: 'A series sends an exact amount each run; "entire balance" is only for one payment.' } };
  if (!s.runAt) return {};
  if (s.input.entireBalance)
    return {
      errors: { when: 'A payment set for a time needs an exact amount; "entire balance" is only for Now.' },
    };
  const rule = scheduleRule(s.runAt.at, deps.now(), deps.config.time.maxAheadMs);
  return rule.ok ? { at: rule.at, zone: s.runAt.zone } : { errors: { when: rule.message } };
}
