/**
 * POST /api/v1/batches' body, checked in the same steps as a single request's: its
 * shape by the zod schema (types, no extra fields), then the batch's wallet and asset and each
 * row's cells by the batch file's own rules (domain/batch-target.ts, domain/batch-file.ts
 * readBatchCells), so every sentence is the one a CSV upload gets. Each problem carries a JSON
 * pointer: row k of the sentences is /rows/k-1.
 */
import type { z } from 'zod';
import type { Asset } from '../../domain/assets.js';
import type { BatchKind } from '../../domain/batch-cells.js';
import { type BatchCells, type BatchRow, type RowError, readBatchCells } from '../../domain/batch-file.js';
import { batchTarget } from '../../domain/batch-target.js';
import type { WalletAlias } from '../../domain/wallets.js';
import { list, typeSentence } from './fields.js';
import type { FieldProblem } from './problem.js';
import { offrampsBatchBody, transfersBatchBody } from './schemas.js';

const SCHEMA = { transfers: transfersBatchBody, offramps: offrampsBatchBody } as const;
const TOP = ['kind', 'wallet', 'asset', 'rows', 'reason'];
const ROW: Record<BatchKind, string[]> = {
  transfers: ['receiver', 'amount', 'reference'],
  offramps: ['beneficiary', 'amount', 'reference'],
};

export interface BatchBody {
  kind: BatchKind;
  wallet: string;
  asset: string;
  reason: string | undefined;
  cells: BatchCells[];
}

export type CheckedBatchBody =
  | { ok: true; body: BatchBody; wallet: WalletAlias; asset: Asset; rows: BatchRow[] }
  | { ok: false; errors: FieldProblem[]; onlyWallet: boolean };

const pointerPart = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');
const pointerOf = (path: readonly PropertyKey[]) => path.map((p) => `/${pointerPart(String(p))}`).join('');

/** A row problem's pointer: /rows/k-1, and its column when it has one. */
export const rowPointer = (e: RowError): string => `/rows/${e.row - 1}${e.column ? `/${e.column}` : ''}`;

/** The value at a zod issue's path in what was sent (zod 4 issues do not carry their input). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

function shapeProblems(kind: BatchKind, raw: unknown, issues: z.core.$ZodIssue[]): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of issues) {
    const at = issue.path;
    const inRow = at[0] === 'rows' && typeof at[1] === 'number';
    const field = String(at.at(-1) ?? '');
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        out.push({
          pointer: `${pointerOf(at)}/${pointerPart(k)}`,
          detail: inRow
            ? `"${k}" is not a field of a ${kind} row; send only ${list(ROW[kind])}.`
            : `"${k}" is not a field of a batch; send only ${list(TOP)}.`,
        });
    } else if (issue.code === 'invalid_type' && valueAt(raw, at) === undefined) {
      // A row's missing cell gets the file's own sentence (readBatchCells sees it empty).
      if (!inRow) out.push({ pointer: pointerOf(at), detail: `${field} is missing; send ${list(TOP.slice(0, 4))}.` });
    } else if (field === 'rows' && issue.code === 'invalid_type')
      out.push({ pointer: '/rows', detail: `rows must be an array of rows, each {${ROW[kind].join(', ')}}.` });
    else if (inRow && at.length === 2)
      out.push({ pointer: pointerOf(at), detail: `Each row must be an object {${ROW[kind].join(', ')}}.` });
    else if (issue.code === 'invalid_type') out.push({ pointer: pointerOf(at), detail: typeSentence(field) });
    else if (issue.code === 'too_big')
      out.push({
        pointer: pointerOf(at),
        detail: `${field} is too long; keep it under ${String(issue.maximum)} characters.`,
      });
    else out.push({ pointer: pointerOf(at), detail: `${field} is not valid: ${issue.message}.` });
  }
  return out;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function checkBatchBody(value: unknown, wallets: readonly WalletAlias[], maxRows: number): CheckedBatchBody {
  const fail = (errors: FieldProblem[], onlyWallet = false): CheckedBatchBody => ({ ok: false, errors, onlyWallet });
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return fail([{ pointer: '', detail: `Send one JSON object with ${list(TOP)} (reason optional).` }]);
  const raw = value as Record<string, unknown>;
  const kind = raw.kind;
  if (kind !== 'transfers' && kind !== 'offramps')
    return fail([{ pointer: '/kind', detail: 'kind must be "transfers" or "offramps".' }]);
  const parsed = SCHEMA[kind].safeParse(raw);
  if (!parsed.success) {
    const shape = shapeProblems(kind, raw, parsed.error.issues);
    if (shape.length > 0) return fail(shape);
  }
  const destination = kind === 'transfers' ? 'receiver' : 'beneficiary';
  const body: BatchBody = {
    kind,
    wallet: text(raw.wallet),
    asset: text(raw.asset),
    reason: typeof raw.reason === 'string' ? raw.reason : undefined,
    cells: (raw.rows as Array<Record<string, unknown>>).map((r) => ({
      destination: text(r[destination]),
      amount: text(r.amount),
      reference: typeof r.reference === 'string' ? r.reference : undefined,
    })),
  };
  const target = batchTarget(wallets, body);
  if ('errors' in target) {
    const { wallet, asset } = target.errors;
    const errors = [
      ...(wallet ? [{ pointer: '/wallet', detail: wallet }] : []),
      ...(asset ? [{ pointer: '/asset', detail: asset }] : []),
    ];
    return fail(errors, asset === undefined);
  }
  const read = readBatchCells(body.cells, { kind, asset: target.asset, maxRows });
  if (read.kind === 'invalid')
    return fail([
      ...read.fileErrors.map((detail) => ({ pointer: '/rows', detail })),
      ...read.rowErrors.map((e) => ({ pointer: rowPointer(e), detail: e.message })),
    ]);
  return { ok: true, body, wallet: target.wallet, asset: target.asset, rows: read.rows };
}
