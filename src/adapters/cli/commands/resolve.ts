/**
 * `rampart resolve R-1234.1 paid <hash|reference> --as U…` and `… not-paid <why> --as U…`: the
 * same use case as Slack's /resolve (app/resolve.ts). `not-paid` only PROPOSES: a second approver
 * confirms it on the card in Slack, never here (`confirm` is refused). The terminal has no Slack
 * identity, so --as names the operator; the CLI cannot read Slack user groups, so only approvers
 * listed by id in APPROVERS may resolve here (a group member uses /resolve in Slack). The history
 * says "from the CLI".
 */

import { resolveText } from '../../../app/resolve-text.js';
import { cliActor } from '../../../domain/actor.js';
import { executionIdProblem, parseResolution } from '../../../domain/resolution.js';
import { type Command, shorten, stringOption } from '../args.js';
import { CliError, UsageError } from '../problems.js';

const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;
const CONFIRM = new Set(['confirm', 'confirm-not-paid']);

export const resolveCommand: Command = {
  words: ['resolve'],
  args: '<execution_id> paid <hash|reference> | <execution_id> not-paid <why…> --as <U…>',
  summary: [
    'Record what an outcome-unknown payment turned out to be: paid (a transaction hash valid for its',
    "      chain, or the offramp's payout reference; it counts as succeeded), or propose not-paid (it",
    '      stays unknown until a second approver confirms on the card in Slack). --as is your Slack',
    '      user id: an approver listed by id in APPROVERS, not the requester.',
  ].join('\n'),
  options: { as: { type: 'string' } },
  prepare(input) {
    const [rawId = '', verdict = ''] = input.positionals;
    if (CONFIRM.has(verdict.toLowerCase())) {
      const id = executionIdProblem(rawId) ? rawId : rawId.toUpperCase();
      throw new CliError(
        `Confirming not-paid is done on ${id || 'the payment'}'s card in Slack by a second approver, never from the terminal; nothing changed.`,
      );
    }
    const parsed = parseResolution(input.positionals);
    if (!parsed.ok) throw new UsageError(parsed.problem.replace(/`/g, '"'));
    const as = stringOption(input, 'as', true).trim();
    if (!SLACK_USER.test(as)) throw new UsageError(`--as "${shorten(as)}" is not a Slack user id such as U0123ABCD`);
    return async (ctx) => {
      const listed = ctx.config.approvers.includes(as);
      if (!listed)
        throw new CliError(
          `${as} is not listed by id in APPROVERS; only those approvers can resolve from the terminal (members of an approvers' user group use /resolve in Slack).`,
        );
      const outcome = await (await ctx.app()).executions.resolve(cliActor(as), parsed.resolution);
      const text = resolveText(outcome, (u) => u);
      if (outcome.kind === 'paid') ctx.answer(text, { executionId: outcome.executionId, state: 'succeeded', by: as });
      else if (outcome.kind === 'proposed')
        ctx.answer(text, {
          executionId: outcome.executionId,
          state: 'unknown',
          proposal: outcome.proposal.id,
          by: as,
        });
      else throw new CliError(text);
    };
  },
};
