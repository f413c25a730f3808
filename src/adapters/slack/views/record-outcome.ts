/**
 * The Record outcome form (Record outcome… on the card, or /resolve R-n): opened at once with
 * the facts Rampart holds, then updated with the wallet's balances read now. Its submit records
 * paid (with the proof) or proposes not-paid (with the reason) through the same use case as
 * /resolve; a refusal is shown on the field it concerns.
 */

import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { resolveText } from '../../../app/resolve-text.js';
import { slackActor } from '../../../domain/actor.js';
import { EXECUTION_ID } from '../../../domain/approval.js';
import { cleanWhy, whyProblem } from '../../../domain/resolution.js';
import { OUTCOME_FIELDS, RECORD_OUTCOME_CALLBACK, recordedModal, recordOutcomeModal } from '../blocks/outcome-modal.js';
import type { Deps } from '../deps.js';
import { encodeMetadata, readMetadata } from '../metadata.js';
import type { Routes, ViewHandler } from '../routes.js';

const meta = z.object({ executionId: z.string().regex(EXECUTION_ID), channel: z.string().optional() });
const who = (u: string) => `<@${u}>`;

/** Opens the form for one execution, or tells the person privately why not. */
export async function openRecordOutcome(
  deps: Deps,
  client: WebClient,
  triggerId: string,
  user: string,
  executionId: string,
  channel: string | undefined,
): Promise<void> {
  const say = (text: string) =>
    client.chat
      .postEphemeral({
        channel: channel ?? deps.config.approvalsChannel,
        user,
        text: text,
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'could not answer Record outcome'));
  try {
    const first = await deps.app.executions.outcomeFacts(user, executionId, false);
    if (!first.ok) return void (await say(resolveText(first.outcome, who)));
    // The form keeps the execution's id, whichever name opened it (`B-1003 row 2` or `B-1003.1`).
    const metadata = encodeMetadata({ executionId: first.facts.executionId, channel });
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: recordOutcomeModal(first.facts, channel, metadata),
    });
    const viewId = opened.view?.id;
    const later = await deps.app.executions.outcomeFacts(user, first.facts.executionId, true);
    if (viewId && later.ok)
      await client.views.update({ view_id: viewId, view: recordOutcomeModal(later.facts, channel, metadata) });
  } catch (err) {
    deps.log.error({ err, executionId }, 'could not open the Record outcome form');
    await say('Rampart could not open the Record outcome form just now; try again in a minute. Nothing changed.');
  }
}

/** The Record outcome form's submit: paid with its proof, or not paid with its reason. */
export const recordOutcomeSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body }) => {
    const m = readMetadata(meta, view.private_metadata);
    const values = view.state.values;
    const verdict = values[OUTCOME_FIELDS.verdict]?.[OUTCOME_FIELDS.verdict]?.selected_option?.value;
    const proof = values[OUTCOME_FIELDS.proof]?.[OUTCOME_FIELDS.proof]?.value?.trim() ?? '';
    const why = cleanWhy(values[OUTCOME_FIELDS.why]?.[OUTCOME_FIELDS.why]?.value ?? '');
    const error = (field: string, text: string) => ack({ response_action: 'errors', errors: { [field]: text } });
    if (!m.ok)
      return void (await error(
        OUTCOME_FIELDS.verdict,
        'This form is from an older version of Rampart; open it again from the card.',
      ));
    const id = m.value.executionId;
    if (verdict !== 'paid' && verdict !== 'not-paid')
      return void (await error(OUTCOME_FIELDS.verdict, 'Choose paid or not paid.'));
    if (verdict === 'paid' && !proof)
      return void (await error(
        OUTCOME_FIELDS.proof,
        `Give the proof that ${id} was paid (the transaction hash or payout reference).`,
      ));
    const problem = verdict === 'not-paid' ? whyProblem(id, why) : undefined;
    if (problem) return void (await error(OUTCOME_FIELDS.why, problem));
    const outcome = await deps.app.executions.resolve(slackActor(body.user.id), {
      id,
      paid: verdict === 'paid',
      note: verdict === 'paid' ? proof : why,
    });
    const text = resolveText(outcome, who);
    if (outcome.kind === 'bad-proof') return void (await error(OUTCOME_FIELDS.proof, outcome.problem));
    if (outcome.kind !== 'paid' && outcome.kind !== 'proposed') return void (await error(OUTCOME_FIELDS.verdict, text));
    await ack({ response_action: 'update', view: recordedModal(text) });
  };

export function registerRecordOutcomeView(app: Routes, deps: Deps): void {
  app.view(RECORD_OUTCOME_CALLBACK, recordOutcomeSubmit(deps));
}
