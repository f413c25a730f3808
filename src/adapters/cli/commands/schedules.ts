/**
 * `rampart schedules list|show|skip|end`: recurring payouts from a terminal. Skip and end are the
 * same use cases as the card's buttons (app/series/actions.ts), with `--as` naming the person;
 * the series' history says "from the CLI".
 */
import { cliActor } from '../../../domain/actor.js';
import { isSeriesId } from '../../../domain/series.js';
import { type SeriesActionOutcome, seriesActionSentence } from '../../../domain/series-answers.js';
import { type Command, type Input, positionals, shorten, stringOption } from '../args.js';
import type { Context } from '../context.js';
import { seriesListText, seriesShowText } from '../format-series.js';
import { CliError, UsageError } from '../problems.js';

const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;

function asUser(input: Input): string {
  const user = stringOption(input, 'as', true).trim();
  if (!SLACK_USER.test(user)) throw new UsageError(`--as "${shorten(user)}" is not a Slack user id such as U0123ABCD`);
  return user;
}

function seriesIdOf(given: string): string {
  const id = given.trim().toUpperCase();
  if (!isSeriesId(id)) throw new UsageError(`"${shorten(given)}" is not a series id such as S-12`);
  return id;
}

/** A done skip or end prints its sentence; a refusal is the command's failure (exit 1). */
function answer(ctx: Context, outcome: SeriesActionOutcome): void {
  const sentence = seriesActionSentence(outcome);
  if (outcome.kind !== 'skipped' && outcome.kind !== 'ended') throw new CliError(sentence);
  ctx.answer(sentence, { ...outcome, sentence });
}

export const schedulesListCommand: Command = {
  words: ['schedules', 'list'],
  args: '',
  summary:
    'Every series (recurring payouts): live and pending first, with its schedule, runs done and skipped, and the next run.',
  prepare(input) {
    positionals(input, []);
    return async (ctx) => {
      const views = await (await ctx.app()).series.list();
      ctx.answer(seriesListText(views), views);
    };
  },
};

export const schedulesShowCommand: Command = {
  words: ['schedules', 'show'],
  args: '<S-n>',
  summary:
    'One series: its schedule, and every run with its time: created (with its request id), skipped (with why), or to come.',
  prepare(input) {
    const [given = ''] = positionals(input, ['<S-n>']);
    const id = seriesIdOf(given);
    return async (ctx) => {
      const view = await (await ctx.app()).series.show(id);
      if (!view) throw new CliError(`No series ${id} under REDIS_PREFIX "${ctx.config.redis.prefix}".`);
      ctx.answer(seriesShowText(view), view);
    };
  },
};

export const schedulesSkipCommand: Command = {
  words: ['schedules', 'skip'],
  args: '<S-n> <run> --as <U…>',
  summary: 'Skip one run not yet created (--as must be an approver): nothing is sent for it; the series goes on.',
  options: { as: { type: 'string' } },
  prepare(input) {
    const [given = '', runText = ''] = positionals(input, ['<S-n>', '<run>']);
    const id = seriesIdOf(given);
    if (!/^[1-9]\d{0,3}$/.test(runText.trim()))
      throw new UsageError(
        `"${shorten(runText)}" is not a run number such as 3 (rampart schedules show ${id} lists them)`,
      );
    const user = asUser(input);
    return async (ctx) => answer(ctx, await (await ctx.app()).series.skipRun(cliActor(user), id, Number(runText)));
  },
};

export const schedulesEndCommand: Command = {
  words: ['schedules', 'end'],
  args: '<S-n> --as <U…>',
  summary:
    'End a live series (--as an approver or its requester): no more runs; a run created but not sent is cancelled.',
  options: { as: { type: 'string' } },
  prepare(input) {
    const [given = ''] = positionals(input, ['<S-n>']);
    const id = seriesIdOf(given);
    const user = asUser(input);
    return async (ctx) => answer(ctx, await (await ctx.app()).series.end(cliActor(user), id));
  },
};
