/**
 * Submission of the transfer/offramp modal: read the form → deps.app.payments.submit → field errors
 * on the modal, or ack and announce the sealed request. Nothing reaches the service's money
 * endpoints here.
 */
import type { ViewStateValue } from '@slack/bolt';
import { DeadlineError, withDeadline } from '../../../app/deadline.js';
import { describeError } from '../../../app/describe-error.js';
import { SubmitBudget } from '../../../app/submit-budget.js';
import { slackActor } from '../../../domain/actor.js';
import { readScheduleForm } from '../../../domain/schedule-form.js';
import { isNote } from '../blocks/identity-options.js';
import { isRepeatChoice, REPEAT_BLOCKS, REPEAT_FIELD_BLOCK } from '../blocks/repeat-input.js';
import { modalMetaSchema, REQUEST_CALLBACK } from '../blocks/request-modal.js';
import { alreadySubmittedModal, NOTHING_SUBMITTED } from '../blocks/submitted.js';
import type { Deps } from '../deps.js';
import { readMetadata } from '../metadata.js';
import type { Routes, ViewHandler } from '../routes.js';
import { isNow, whenField } from './when-field.js';

/** Slack allows 3 s for the answer; the balance check must leave room for the create. */
const CHECK_BUDGET_MS = 1_700;

type Values = Record<string, Record<string, ViewStateValue>>;
// Each input's action_id is its block_id (unique in the view).
const text = (v: Values, block: string) => v[block]?.[block]?.value ?? undefined;
const selected = (v: Values, block: string) => v[block]?.[block]?.selected_option?.value ?? undefined;

const NOTE_CHOSEN =
  'That line says what to do next: use "Use an existing beneficiary id…" or "New beneficiary…" under this field.';

const uncheckedText = (err: unknown): string =>
  err instanceof DeadlineError
    ? 'The wallet service is slow to answer, so the balance could not be checked; submit again in a moment.'
    : describeError(err);

/** A single payment (now or at a set time), a series from the repeat fields, or the field that is wrong. */
function whenOf(v: Values, zone: string) {
  const repeat = v[REPEAT_BLOCKS.repeat]?.[REPEAT_BLOCKS.repeat]?.selected_option?.value ?? undefined;
  const read = readScheduleForm(
    {
      repeat: isRepeatChoice(repeat) ? repeat : undefined,
      every: text(v, REPEAT_BLOCKS.every),
      at: text(v, REPEAT_BLOCKS.at),
      ends: text(v, REPEAT_BLOCKS.ends),
      // With a repeat, When names the first date a run may fall on ("now" as empty: from today).
      from: isNow(text(v, 'when')) ? undefined : text(v, 'when'),
    },
    zone,
  );
  if (read.kind === 'problem') return { errors: { [REPEAT_FIELD_BLOCK[read.field]]: read.message } };
  return read.kind === 'series' ? { schedule: read.input } : whenField(text(v, 'when'), zone);
}

/** The transfer or offramp form's submit: errors on the fields, or the sealed request announced. */
export const requestSubmit =
  (deps: Deps, kind: 'transfer' | 'offramp'): ViewHandler =>
  async ({ ack, view, body }) => {
    const budget = new SubmitBudget();
    const m = readMetadata(modalMetaSchema, view.private_metadata);
    if (!m.ok) {
      await ack({ response_action: 'errors', errors: { reason: m.problem } });
      return;
    }
    const v = view.state.values;
    const timing = whenOf(v, deps.config.time.zone);
    if ('errors' in timing) {
      await ack({ response_action: 'errors', errors: timing.errors });
      return;
    }
    const outcome = await deps.app.payments.submit(
      slackActor(body.user.id),
      {
        input: {
          kind,
          wallet: selected(v, 'wallet'),
          asset: selected(v, 'asset'),
          amount: text(v, 'amount'),
          entireBalance: (v.entire?.entire?.selected_options?.length ?? 0) > 0,
          receiver: text(v, 'receiver'),
          beneficiary: selected(v, 'beneficiary'),
          reason: text(v, 'reason'),
        },
        origin: m.value.channel,
        submission: view.id,
        ...timing,
      },
      { budget, withinBudget: (work) => withDeadline(work, CHECK_BUDGET_MS) },
    );
    switch (outcome.kind) {
      case 'schedule':
        await ack({ response_action: 'errors', errors: { [REPEAT_FIELD_BLOCK[outcome.field]]: outcome.message } });
        return;
      case 'invalid': {
        const errors = outcome.errors as Record<string, string>;
        // The picker's hints are options too; choosing one gets a sentence, not a refusal.
        if (errors.beneficiary && isNote(selected(v, 'beneficiary'))) errors.beneficiary = NOTE_CHOSEN;
        await ack({ response_action: 'errors', errors });
        return;
      }
      case 'unchecked':
        await ack({ response_action: 'errors', errors: { wallet: uncheckedText(outcome.error) } });
        return;
      case 'duplicate':
        // Say where the first submit went; never close the form as if this one worked.
        await ack({ response_action: 'update', view: alreadySubmittedModal(kind, outcome.id, deps) });
        return;
      case 'nothing':
        await ack({ response_action: 'errors', errors: { reason: NOTHING_SUBMITTED } });
        return;
      case 'submitted':
        await deps.app.payments.ackThenAnnounce(() => ack({ response_action: 'clear' }), outcome.sealed);
        return;
    }
  };

export function registerRequestViews(app: Routes, deps: Deps): void {
  for (const kind of ['transfer', 'offramp'] as const) app.view(REQUEST_CALLBACK[kind], requestSubmit(deps, kind));
}
