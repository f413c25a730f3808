/**
 * `rampart resolve R-1234.1 paid <hash|reference> --as U…` and `… not-paid <why> --as U…`
 * (issue 19): the same use case as Slack's /resolve (app/resolve.ts). The terminal has no Slack
 * identity, so --as names the approver; the CLI cannot read Slack user groups, so only approvers
 * listed by id in APPROVERS may resolve here (a group member uses /resolve in Slack).
 */
import { resolveText } from '../../app/resolve-text.js';
import { parseResolution } from '../../domain/resolution.js';
import { type Command, shorten, stringOption } from '../args.js';
import { CliError, UsageError } from '../problems.js';

const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;

export const resolveCommand: Command = {
  words: ['resolve'],
  args: '<request_id> paid <hash|reference> | <request_id> not-paid <why…> --as <U…>',
  summary: [
    'Record what an outcome-unknown payment turned out to be: paid (it counts as succeeded) or',
    '      not-paid (failed; its velocity amount is given back and it may be requested again). --as is',
    '      your Slack user id: an approver listed by id in APPROVERS, not the requester.',
  ].join('\n'),
  options: { as: { type: 'string' } },
  prepare(input) {
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
      const outcome = await (await ctx.app()).resolve(as, parsed.resolution);
      const text = resolveText(outcome, (u) => u);
      if (outcome.kind !== 'resolved') throw new CliError(text);
      ctx.answer(text, { executionId: outcome.executionId, state: outcome.paid ? 'succeeded' : 'failed', by: as });
    };
  },
};
