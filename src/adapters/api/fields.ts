/**
 * A POST body's fields, checked in two steps: its shape by the zod schema (types,
 * no extra fields), then the modal's own rules (domain/draft.ts), so the sentences are the ones
 * a person reads in Slack; each problem carries the JSON pointer of the field.
 */
import type { z } from 'zod';
import { type Draft, type DraftField, validateDraft } from '../../domain/draft.js';
import type { ScheduleInput } from '../../domain/schedule.js';
import type { WalletAlias } from '../../domain/wallets.js';
import type { FieldProblem } from './problem.js';
import { offrampBody, transferBody } from './schemas.js';

export type MoneyKind = 'transfer' | 'offramp';
export const BODY_SCHEMA = { transfer: transferBody, offramp: offrampBody } as const;
const FIELDS: Record<MoneyKind, readonly string[]> = {
  transfer: ['wallet', 'asset', 'amount', 'receiver', 'reason', 'run_at', 'schedule'],
  offramp: ['wallet', 'asset', 'amount', 'beneficiary', 'reason', 'run_at', 'schedule'],
};

export type Checked =
  | { ok: true; draft: Draft; body: Record<string, string>; schedule?: ScheduleInput }
  | { ok: false; errors: FieldProblem[]; onlyWallet: boolean };

export const list = (names: readonly string[]) => `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

export function typeSentence(field: string): string {
  if (field === 'amount')
    return 'amount must be a string holding the exact decimal, e.g. "250.00" (a JSON number could be rounded).';
  return `${field} must be a string.`;
}

function shapeProblems(kind: MoneyKind, raw: Record<string, unknown>, issues: z.core.$ZodIssue[]): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (field === 'schedule') {
      out.push(scheduleShapeProblem(issue));
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        out.push({
          pointer: `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`,
          detail: `"${k}" is not a field of ${kind === 'transfer' ? 'a transfer' : 'an offramp'}; send only ${list(FIELDS[kind])}.`,
        });
    } else if (raw[field] === undefined) {
      // A missing field gets the modal's own sentence (from validateDraft below).
    } else if (issue.code === 'invalid_type') out.push({ pointer: `/${field}`, detail: typeSentence(field) });
    else if (issue.code === 'too_big')
      out.push({
        pointer: `/${field}`,
        detail: `${field} is too long; keep it under ${String(issue.maximum)} characters.`,
      });
    else out.push({ pointer: `/${field}`, detail: `${field} is not valid: ${issue.message}.` });
  }
  return out;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function checkFields(kind: MoneyKind, value: unknown, wallets: readonly WalletAlias[]): Checked {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      ok: false,
      onlyWallet: false,
      errors: [{ pointer: '', detail: `Send one JSON object with ${list(FIELDS[kind])}.` }],
    };
  const raw = value as Record<string, unknown>;
  const parsed = BODY_SCHEMA[kind].safeParse(raw);
  const shape = parsed.success ? [] : shapeProblems(kind, raw, parsed.error.issues);
  if (shape.length > 0) return { ok: false, errors: shape, onlyWallet: false };
  const validated = validateDraft(
    {
      kind,
      wallet: text(raw.wallet)?.trim().toLowerCase(),
      asset: text(raw.asset),
      amount: text(raw.amount),
      entireBalance: false,
      receiver: text(raw.receiver),
      beneficiary: text(raw.beneficiary),
      reason: text(raw.reason),
    },
    wallets,
  );
  if ('errors' in validated) {
    const fields = Object.keys(validated.errors) as DraftField[];
    return {
      ok: false,
      onlyWallet: fields.length === 1 && fields[0] === 'wallet',
      errors: fields.map((f) => ({ pointer: `/${f}`, detail: validated.errors[f] ?? '' })),
    };
  }
  const schedule = parsed.data?.schedule;
  if (!schedule) return { ok: true, draft: validated.draft, body: raw as Record<string, string> };
  const read = scheduleInput(schedule, raw.run_at !== undefined);
  if ('pointer' in read) return { ok: false, errors: [read], onlyWallet: false };
  return { ok: true, draft: validated.draft, body: raw as Record<string, string>, schedule: read };
}

/** A nested schedule field's shape problem, on its own pointer. */
function scheduleShapeProblem(issue: z.core.$ZodIssue): FieldProblem {
  if (issue.code === 'unrecognized_keys')
    return {
      pointer: '/schedule',
      detail: `${list(issue.keys.map((k) => `"${k}"`))} ${issue.keys.length > 1 ? 'are not fields' : 'is not a field'} of a schedule; send every, n or day, at, zone, runs or until, and from.`,
    };
  const name = issue.path.slice(1).join('/');
  if (!name)
    return {
      pointer: '/schedule',
      detail: 'schedule must be an object, for example {"every":"month","day":1,"at":"09:00","zone":"UTC","runs":12}.',
    };
  return { pointer: `/schedule/${name}`, detail: `schedule.${name} is not valid: ${issue.message}.` };
}

type ScheduleBody = NonNullable<z.infer<typeof transferBody>['schedule']>;

/** The schedule as the domain reads it; ending after runs or on a date, and never with run_at. */
function scheduleInput(s: ScheduleBody, withRunAt: boolean): ScheduleInput | FieldProblem {
  if (withRunAt)
    return { pointer: '/run_at', detail: 'Send run_at or schedule, not both: a series sets its own run times.' };
  if ((s.runs === undefined) === (s.until === undefined))
    return {
      pointer: '/schedule/runs',
      detail: 'Say when the series ends: send runs (how many) or until (a date), one of them.',
    };
  const every = s.every === 'month' ? { unit: 'month' as const, day: s.day ?? 0 } : { unit: s.every, n: s.n ?? 1 };
  return {
    every,
    at: s.at,
    zone: s.zone,
    ends: s.runs !== undefined ? { after: s.runs } : { on: s.until ?? '' },
    from: s.from,
  };
}
