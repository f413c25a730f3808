/**
 * submitBatch: a checked batch file becomes ONE approval `B-<n>` with one execution
 * per row (`B-n.1`…), each its own sealed call; quorum by the total, no self-approval and expiry
 * as for a single request (the VOTE script is the same). The card and the rows file follow
 * through the notify job (app/notices/notify.ts) after the edge's ack.
 */

import { amountToString, amountToWire, formatAmount } from '../domain/amount.js';
import { type BatchFacts, type BatchRowRecord, previewLines, repeatsInFile } from '../domain/batch-approval.js';
import { rowKey } from '../domain/destination-key.js';
import type { ApiVia } from '../domain/open-caps.js';
import { evaluatePolicy } from '../domain/policy.js';
import { flaggedFirst, PAID_BENEFICIARIES } from '../domain/repeats.js';
import type { SealedRequest, ServiceCall } from '../domain/request.js';
import { needsStepUp } from '../domain/step-up.js';
import { cancelWindowMs, scheduleRule, timingOf } from '../domain/timing.js';
import type { CheckedBatch } from './check-batch.js';
import type { AppDeps } from './deps.js';
import { lookalikes } from './destinations/lookalikes.js';
import { sealRequest } from './post-request.js';
import { batchHistoryWarnings } from './repeats.js';

export interface BatchSubmission {
  checked: CheckedBatch;
  requester: string;
  reason: string;
  /** Channel /batch was typed in: the requester's confirmation goes there. */
  origin: string | undefined;
  /** The modal's view id: one submitted form makes at most one batch. */
  submission: string;
  fileName: string;
  /** Made through the HTTP API with this key (its owner is `requester`). */
  via?: ApiVia;
  /** Set for a time (the form's When): the moment as read (undefined: unreadable) and its zone. */
  runAt?: { at: number | undefined; zone: string };
}

export type SubmitBatchOutcome =
  | { kind: 'created'; sealed: SealedRequest }
  /** This form already became batch `id` (a repeated submission). */
  | { kind: 'taken'; id: string }
  /** The policy refuses the total, or MAX_OPEN_PER_REQUESTER: one sentence for the form. */
  | { kind: 'refused'; reason: string }
  /** Nothing was stored, and nothing will be: tell the person so. */
  | { kind: 'nothing' };

const text = amountToString;

export function batchRows(c: CheckedBatch): BatchRowRecord[] {
  return c.rows.map((r) => ({
    row: r.row,
    destination: r.destination,
    ...(r.written ? { written: r.written } : {}),
    amount: text(r.amount),
    ...(r.reference ? { reference: r.reference } : {}),
  }));
}

/**
 * The approval's own call describes the whole batch: the first row's call with the TOTAL as its
 * amount. It is never sent (each execution carries its own sealed call); the policy, the velocity
 * ledger (the total reserved at quorum) and the card read it.
 */
function describingCall(c: CheckedBatch): ServiceCall {
  const first = c.rows[0]?.call;
  if (!first) throw new Error('a checked batch has at least one row');
  return { ...first, body: { ...first.body, amount: amountToWire(c.total) } } as ServiceCall;
}

/** The policy's answer for the total (pure): the edge asks before its ack. */
export function batchPolicy(config: AppDeps['config'], c: CheckedBatch) {
  return evaluatePolicy(config.policy, {
    kind: c.batchKind === 'transfers' ? 'transfer' : 'offramp',
    assetCode: c.asset.code,
    amount: c.total,
  });
}

export async function submitBatch(
  deps: Pick<AppDeps, 'store' | 'now' | 'config' | 'log'>,
  batch: BatchSubmission,
): Promise<SubmitBatchOutcome> {
  const c = batch.checked;
  const policy = batchPolicy(deps.config, c);
  if (!policy.ok) return { kind: 'refused', reason: `This batch cannot be approved: ${policy.reason}.` };
  // A set time: in the future and within SCHEDULE_MAX_AHEAD (domain/timing.ts), said on refusal.
  const set = batch.runAt ? scheduleRule(batch.runAt.at, deps.now(), deps.config.time.maxAheadMs) : undefined;
  if (set && !set.ok) return { kind: 'refused', reason: `When: ${set.message}` };
  const rows = batchRows(c);
  // The warnings, read together: new destinations (transfers and offramps alike),
  // repeats of earlier payments, the same file again; repeats of another row of this file.
  const [newDestinations, history, alike] = await Promise.all([
    neverPaid(deps, c),
    batchHistoryWarnings(deps, c.rows, c.fileFingerprint),
    c.batchKind === 'transfers' ? lookalikes(deps, c.asset.chain, c.rows) : Promise.resolve([]),
  ]);
  const repeats = repeatsInFile(rows, (d) => rowKey(c.batchKind, c.asset.chain, d));
  const urgent = new Set(history.repeats.filter((r) => r.state === 'unknown').map((r) => r.row));
  const flagged = new Set([
    ...alike.map((r) => r.row),
    ...newDestinations,
    ...history.repeats.map((r) => r.row),
    ...repeats.map((r) => r.row),
  ]);
  const facts: BatchFacts = {
    kind: c.batchKind,
    fileName: batch.fileName,
    rows: c.rows.length,
    total: text(c.total),
    largest: { row: c.largest.row, amount: text(c.largest.amount) },
    availableNow: text(c.availableNow),
    availableAfter: text(c.availableAfter),
    fileFingerprint: c.fileFingerprint,
    // Flagged rows first, a repeat of an unknown payment before anything else.
    preview: previewLines(flaggedFirst(rows, urgent, flagged), c.asset.code, c.asset.id),
  };
  if (newDestinations.length > 0) facts.newDestinations = newDestinations;
  if (alike.length > 0) facts.lookalikes = alike;
  if (repeats.length > 0) facts.repeatsInFile = repeats;
  if (history.repeats.length > 0) facts.repeats = history.repeats;
  if (history.repeatedRows > history.repeats.length) facts.repeatedRows = history.repeatedRows;
  if (history.sameFile.length > 0) facts.sameFile = history.sameFile;
  const id = await deps.store.nextId('B');
  await deps.store.batches.saveRows(id, rows);
  const submitted = await sealRequest(deps, {
    id,
    shape: 'batch',
    call: describingCall(c),
    calls: c.rows.map((r) => r.call),
    display: {
      walletAlias: c.walletAlias,
      walletAddress: c.walletAddress,
      amountText: formatAmount(c.total),
      assetCode: c.asset.code,
      chain: c.asset.chain,
      availableBefore: formatAmount(c.availableNow),
      availableAfter: formatAmount(c.availableAfter),
      batch: facts,
      ...(c.screening.length > 0 ? { screening: c.screening } : {}),
      ...(batch.via ? { viaApi: { keyId: batch.via.keyId, keyName: batch.via.keyName, owner: batch.via.owner } } : {}),
    },
    requester: batch.requester,
    reason: batch.reason || `batch ${batch.fileName}`,
    origin: batch.origin,
    required: policy.required,
    rule: policy.rule,
    submission: batch.submission,
    ...(batch.via ? { keyMaxOpen: batch.via.maxOpen } : {}),
    availableUnits: c.availableNow.units.toString(),
    ...(c.velocityNote ? { velocityNote: c.velocityNote } : {}),
    // A batch by its total, or (STEP_UP_NEW_DESTINATION=on) any row to a new destination.
    stepUp: needsStepUp(deps.config.stepUp, {
      kind: c.batchKind === 'transfers' ? 'transfer' : 'offramp',
      assetCode: c.asset.code,
      amount: c.total,
      // A lookalike counts as a new destination (docs/destinations.md).
      newDestination: newDestinations.length > 0 || alike.length > 0,
    }),
    // The cancel window by the same measures (a batch compares its total).
    timing: timingOf(
      cancelWindowMs(deps.config.time, {
        assetCode: c.asset.code,
        amount: c.total,
        newDestination: newDestinations.length > 0,
        entireBalance: false,
      }),
      set?.ok && batch.runAt ? { at: set.at, zone: batch.runAt.zone } : undefined,
    ),
  });
  if (submitted.kind === 'created') {
    deps.log.info({ requestId: id, rows: rows.length, requester: batch.requester }, 'batch posted for approval');
    return { kind: 'created', sealed: submitted.sealed };
  }
  if (submitted.kind === 'taken') return { kind: 'taken', id: submitted.id };
  if (submitted.kind === 'refused') return { kind: 'refused', reason: submitted.reason };
  return { kind: 'nothing' };
}

/**
 * Rows paying a receiver Rampart has never paid on this chain, or a beneficiary it has never paid
 * (one read per row, sent together).
 */
async function neverPaid(deps: Pick<AppDeps, 'store'>, c: CheckedBatch): Promise<number[]> {
  const scope = c.batchKind === 'transfers' ? c.asset.chain : PAID_BENEFICIARIES;
  const known = await Promise.all(c.rows.map((r) => deps.store.knownPayee(scope, r.destination)));
  return c.rows.filter((_, i) => !known[i]).map((r) => r.row);
}
