/**
 * The /transfer and /offramp forms' submission: a single payment, or a series when the form's
 * repeat fields make one (its schedule sealed here as the API's is, app/payments/seal-schedule.ts),
 * then the one use case both doors share (submitRequest), which judges a series on its total.
 */
import type { ScheduleField, ScheduleInput } from '../../domain/schedule.js';
import { type Submission, type SubmitDeps, type SubmitOutcome, submitRequest } from '../submit-request.js';
import { sealScheduleNow } from './seal-schedule.js';

export type FormSubmission = Omit<Submission, 'schedule'> & {
  /** The repeat fields as read (domain/schedule-form.ts); absent for a single payment. */
  schedule?: ScheduleInput | undefined;
};

export type FormOutcome =
  | SubmitOutcome
  /** The schedule cannot be run as typed: one sentence for the field it names. */
  | { kind: 'schedule'; field: ScheduleField; message: string };

export async function submitForm(deps: SubmitDeps, s: FormSubmission): Promise<FormOutcome> {
  const { schedule, ...rest } = s;
  if (!schedule) return submitRequest(deps, rest);
  const sealed = sealScheduleNow(deps, schedule);
  if (!sealed.ok) return { kind: 'schedule', field: sealed.field, message: sealed.message };
  return submitRequest(deps, { ...rest, schedule: sealed.schedule });
}
