/**
 * checkBatch: every row of a batch file checked against live facts before anything
 * is posted — the file's own rules, the wallet active and capable, the asset held, each
 * beneficiary approved (resolved to its id), the total within the available balance and the
 * velocity limits. Nothing is stored and nothing reaches the service's money endpoints here.
 */

import { createHash } from 'node:crypto';
import { beneficiaryCoolingSentence, beneficiaryStartRule } from '../domain/address-book.js';
import { type Amount, formatAmount } from '../domain/amount.js';
import type { Asset } from '../domain/assets.js';
import type { BatchKind } from '../domain/batch-cells.js';
import { type BatchCells, type BatchRow, type RowError, readBatchCells, readBatchFile } from '../domain/batch-file.js';
import { fileFingerprint } from '../domain/batch-hash.js';
import { batchTarget } from '../domain/batch-target.js';
import { rowKey } from '../domain/destination-key.js';
import { canonicalJson, type ServiceCall } from '../domain/request.js';
import type { ScreeningRefusal } from '../domain/rules/screening.js';
import { sealedCall } from '../domain/service-call.js';
import {
  exceededSentence,
  firstExceeded,
  headroomSentence,
  rulesFor,
  type VelocitySubject,
} from '../domain/velocity.js';
import { checkDraftAgainstWallet } from '../domain/wallet-check.js';
import { type BeneficiaryDeps, resolveBeneficiaries } from './batch-beneficiaries.js';
import type { AppDeps } from './deps.js';
import { type BookDeps, checkRows } from './destinations/check.js';
import { type ScreeningDeps, screenKeys } from './screening.js';

export type BatchInput = {
  kind: BatchKind;
  /** A configured wallet alias (any case) or its id. */
  wallet: string;
  asset: string;
  /** A CSV file (Slack, CLI), or rows already split into cells (the HTTP API). */
} & ({ bytes: Uint8Array } | { rows: readonly BatchCells[] });

export interface CheckedRow {
  row: number;
  /** The receiver address, or the beneficiary's id (a label resolved). */
  destination: string;
  /** The beneficiary as written in the file, when it was a label. */
  written?: string;
  amount: Amount;
  reference: string | undefined;
  /** Exactly the body the service will receive for this row (DESIGN invariant 2). */
  call: ServiceCall;
  sealHash: string;
}

export interface CheckedBatch {
  kind: 'checked';
  batchKind: BatchKind;
  walletAlias: string;
  walletId: string;
  walletAddress: string;
  asset: Asset;
  rows: CheckedRow[];
  total: Amount;
  largest: CheckedRow;
  availableNow: Amount;
  availableAfter: Amount;
  /** "ops has … left of … in the last 24 h", one per rule; undefined without rules. */
  velocityNote: string | undefined;
  fileFingerprint: string;
  /** What screening checked (the card's lines); empty for offramps and with SCREENING=off. */
  screening: string[];
}

export type CheckBatchOutcome =
  | { kind: 'invalid'; rowErrors: RowError[]; fileErrors: string[]; screening?: ScreeningRefusal }
  /** The wallet could not be read (service failed or slow): the edge phrases it. */
  | { kind: 'unchecked'; error: unknown }
  | CheckedBatch;

export type CheckBatchDeps = Pick<AppDeps, 'config' | 'controls' | 'now'> &
  ScreeningDeps &
  BeneficiaryDeps & {
    /** Only the wallet's reads (the CLI's façade opens the service on the first one). */
    service: Pick<AppDeps['service'], 'getWallet' | 'getBalances'>;
    /** Bounds the service reads (Slack's ack budget); the CLI waits as long as it takes. */
    withinBudget?: <T>(work: Promise<T>) => Promise<T>;
    /** The address book, which every transfer row is checked against (DESTINATIONS). */
    store?: BookDeps['store'];
  };

const invalid = (fileErrors: string[], rowErrors: RowError[] = []): CheckBatchOutcome => ({
  kind: 'invalid',
  fileErrors,
  rowErrors: [...rowErrors].sort((a, b) => a.row - b.row),
});

/** The batch's wallet and asset (domain/batch-target.ts), kept here for the callers that import it. */
export { batchTarget };

export async function checkBatch(deps: CheckBatchDeps, input: BatchInput): Promise<CheckBatchOutcome> {
  const target = batchTarget(deps.config.wallets, input);
  if ('errors' in target)
    return invalid([target.errors.wallet, target.errors.asset].filter((e): e is string => e !== undefined));
  const { wallet, asset } = target;
  const options = { kind: input.kind, asset, maxRows: deps.config.batch.maxRows };
  const read = 'rows' in input ? readBatchCells(input.rows, options) : readBatchFile(input.bytes, options);
  if (read.kind === 'invalid') {
    // Every row's problems at once: the beneficiaries of the rows that read are checked too.
    const more =
      input.kind === 'offramps' && read.fileErrors.length === 0
        ? await resolveBeneficiaries(deps, read.rows)
        : undefined;
    return invalid(read.fileErrors, [...read.rowErrors, ...(more?.errors ?? [])]);
  }

  const bounded = deps.withinBudget ?? (<T>(work: Promise<T>) => work);
  let facts: [
    Awaited<ReturnType<AppDeps['service']['getWallet']>>,
    Awaited<ReturnType<AppDeps['service']['getBalances']>>,
  ];
  try {
    facts = await bounded(Promise.all([deps.service.getWallet(wallet.id), deps.service.getBalances(wallet.id)]));
  } catch (error) {
    return { kind: 'unchecked', error };
  }
  const resolved =
    input.kind === 'offramps'
      ? await resolveBeneficiaries(deps, read.rows)
      : { ids: new Map<number, string>(), errors: [] };
  const total: Amount = { units: read.rows.reduce((sum, r) => sum + r.amount.units, 0n), decimals: asset.decimals };
  const draftKind = input.kind === 'transfers' ? 'transfer' : 'offramp';
  const base = { kind: draftKind, walletAlias: wallet.alias, walletId: wallet.id, asset, reason: 'batch' } as const;
  const against = checkDraftAgainstWallet(
    { ...base, amount: total, receiver: undefined, beneficiaryId: undefined },
    ...facts,
  );
  if ('errors' in against) {
    const e = against.errors;
    const amountProblem = e.amount && `The total of ${formatAmount(total)} ${asset.code} is too much: ${e.amount}`;
    return invalid(
      [e.wallet, e.asset, amountProblem].filter((p): p is string => p !== undefined),
      resolved.errors,
    );
  }
  if (resolved.errors.length > 0) return invalid([], resolved.errors);
  // A new beneficiary cools off (app/destinations/beneficiary-cooling.ts): its rows are refused
  // until then, with the time; rows never wait, so they never hold the batch.
  if (input.kind === 'offramps') {
    const cooling = await coolingRows(deps, read.rows, resolved.ids);
    if (cooling.length > 0) return invalid([], cooling);
  }
  // The address book: a row to an address outside it (book mode), removed, or still cooling is
  // refused with its sentence; rows never wait, so they never hold the batch.
  if (input.kind === 'transfers' && deps.store?.book) {
    const bookErrors = await bounded(
      checkRows({ store: deps.store, config: deps.config, now: deps.now }, read.rows, asset.chain, wallet.id),
    );
    if (bookErrors.length > 0) return invalid([], bookErrors);
  }

  const rows = read.rows.map((r) => sealRow(r, base, resolved.ids.get(r.row)));
  const keys = input.kind === 'transfers' ? rows.map((r) => rowKey(input.kind, asset.chain, r.destination)) : [];
  const [velocity, screened] = await Promise.all([
    checkVelocityOfTotal(deps, wallet, asset, total),
    screenKeys(deps, keys),
  ]);
  // Every listed row at once, each with the list's name and date.
  if (screened.code) {
    const rowErrors = rows.flatMap((r, i) => {
      const refusal = screened.refused.get(keys[i] ?? '');
      return refusal ? [{ row: r.row, column: 'receiver', message: `Row ${r.row} receiver: ${refusal}` }] : [];
    });
    return { kind: 'invalid', fileErrors: [], rowErrors, screening: screened.code };
  }
  if (velocity.problem) return invalid([velocity.problem]);
  const available = BigInt(against.availableUnits);
  const largest = rows.reduce((a, b) => (b.amount.units > a.amount.units ? b : a));
  return {
    kind: 'checked',
    batchKind: input.kind,
    walletAlias: wallet.alias,
    walletId: wallet.id,
    walletAddress: against.display.walletAddress ?? '',
    asset,
    rows,
    total,
    largest,
    availableNow: { units: available, decimals: asset.decimals },
    availableAfter: { units: available - total.units, decimals: asset.decimals },
    velocityNote: velocity.note,
    fileFingerprint: fileFingerprint(input.kind, wallet.id, asset.id, rows),
    screening: screened.lines(keys[0]),
  };
}

/** DESIGN "hashes": the full SHA-256 of one execution's canonical call, ids resolved, exact amount. */
export const sealHash = (call: ServiceCall): string => createHash('sha256').update(canonicalJson(call)).digest('hex');

type DraftBase = { kind: 'transfer' | 'offramp'; walletAlias: string; walletId: string; asset: Asset; reason: string };

function sealRow(r: BatchRow, base: DraftBase, beneficiaryId: string | undefined): CheckedRow {
  const destination = base.kind === 'transfer' ? r.destination : (beneficiaryId ?? r.destination);
  const call = sealedCall({
    ...base,
    amount: r.amount,
    receiver: base.kind === 'transfer' ? destination : undefined,
    beneficiaryId: base.kind === 'offramp' ? destination : undefined,
  });
  return {
    row: r.row,
    destination,
    ...(destination !== r.destination ? { written: r.destination } : {}),
    amount: r.amount,
    reference: r.reference,
    call,
    sealHash: sealHash(call),
  };
}

async function coolingRows(deps: CheckBatchDeps, rows: readonly BatchRow[], ids: Map<number, string>) {
  const read = deps.registry.beneficiaryCooling?.bind(deps.registry);
  if (!read) return [];
  const now = deps.now();
  const distinct = [...new Set(ids.values())];
  const found = new Map(await Promise.all(distinct.map(async (id) => [id, await read(id)] as const)));
  return rows.flatMap((r) => {
    const c = found.get(ids.get(r.row) ?? '');
    const verdict = beneficiaryStartRule(c, { approvedAt: now, row: true }, now);
    return c && 'ok' in verdict && !verdict.ok
      ? [
          {
            row: r.row,
            column: 'beneficiary',
            message: `Row ${r.row} beneficiary: ${beneficiaryCoolingSentence(r.destination, c.usableAt, 'row')}`,
          },
        ]
      : [];
  });
}

/** The amount rules over the batch's total; the approval reserves per row at wiring. */
async function checkVelocityOfTotal(
  deps: CheckBatchDeps,
  wallet: { alias: string; id: string },
  asset: Asset,
  total: Amount,
): Promise<{ problem?: string; note: string | undefined }> {
  const code = asset.code.toUpperCase();
  const rules = rulesFor(deps.config.controls.velocity, wallet.alias, code);
  if (rules.length === 0) return { note: undefined };
  const subject: VelocitySubject = {
    walletId: wallet.id,
    walletAlias: wallet.alias,
    code,
    decimals: asset.decimals,
    units: total.units,
  };
  const usages = await deps.controls.usage(subject, rules, deps.now());
  const over = firstExceeded(usages, total.units);
  if (over) return { problem: exceededSentence(subject, over, 'batch'), note: undefined };
  return { note: usages.map((u) => headroomSentence(subject, u)).join('; ') };
}
