/**
 * /resolve: `/resolve R-n.1 paid <proof>` and `/resolve B-n row k not-paid <why>` (a batch's row as
 * its card names it, or its execution id `B-n.k`) → deps.app.executions.resolve (app/resolve.ts) →
 * one private sentence; not-paid only proposes. The payment alone opens the Record outcome form
 * (slack/views/record-outcome.ts).
 */

import { resolveText } from '../../../app/resolve-text.js';
import { slackActor } from '../../../domain/actor.js';
import { APPROVAL_ID, EXECUTION_ID } from '../../../domain/approval.js';
import { leadingRef, parseResolution, parseRowRef } from '../../../domain/resolution.js';
import { esc } from '../blocks/common.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import type { CommandHandler, Routes } from '../routes.js';
import { openRecordOutcome } from '../views/record-outcome.js';

/** /resolve: the usage, the Record outcome form for an id alone, else the typed resolution recorded. */
export const resolveCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, client }) => {
    const text = command.text ?? '';
    if (isHelp(text) || !text.trim()) {
      await ack({ response_type: 'ephemeral', text: USAGE.resolve });
      return;
    }
    const words = text.trim().split(/\s+/);
    // The payment alone (`R-12`, `B-1003 row 2`, `B-1003.1`) opens the form.
    const lead = leadingRef(words);
    const only = lead.rest.length === 0 ? lead.ref.toUpperCase() : '';
    if (only && (APPROVAL_ID.test(only) || EXECUTION_ID.test(only) || parseRowRef(only))) {
      // A batch's rows are many: its row must be named; a single request's only execution is .1.
      if (APPROVAL_ID.test(only) && (await deps.app.reads.request(only))?.shape === 'batch') {
        await ack({ response_type: 'ephemeral', text: `Name the row of ${only}, e.g. \`/resolve ${only} row 3\`.` });
        return;
      }
      await ack();
      const id = APPROVAL_ID.test(only) ? `${only}.1` : parseRowRef(only) ? lead.ref : only;
      await openRecordOutcome(deps, client, command.trigger_id, command.user_id, id, command.channel_id);
      return;
    }
    const parsed = parseResolution(words);
    if (!parsed.ok) {
      await ack({ response_type: 'ephemeral', text: esc(parsed.problem) });
      return;
    }
    await ack();
    let answer: string;
    try {
      const outcome = await deps.app.executions.resolve(slackActor(command.user_id), parsed.resolution);
      answer = resolveText(outcome, (u) => `<@${u}>`);
    } catch (err) {
      deps.log.error({ err }, '/resolve failed');
      answer =
        'Rampart could not finish recording that just now; try again in a minute (a resolution already recorded is never recorded twice).';
    }
    await client.chat
      .postEphemeral({
        channel: command.channel_id,
        user: command.user_id,
        text: answer,
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'could not answer /resolve'));
  };

export function registerResolveCommand(app: Routes, deps: Deps): void {
  app.command('/resolve', resolveCommand(deps));
}
