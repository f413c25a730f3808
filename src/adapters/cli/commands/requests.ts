/** `rampart requests` and `requests show`: the approval requests Rampart keeps in Redis. */
import { APPROVAL_ID, VIEW_STATES, type ViewState } from '../../../domain/approval.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import { executionsText, executionValues } from '../format-batch.js';
import { requestDetail, requestShowText, requestsText, summarise } from '../format-requests.js';
import { CliError, UsageError } from '../problems.js';

// Most rows one listing prints; --state reads the per-state index, so nothing older is missed.
const MAX_LIMIT = 1000;
const isState = (s: string): s is ViewState => (VIEW_STATES as readonly string[]).includes(s);

export const requestsCommand: Command = {
  words: ['requests'],
  args: '[--state STATE] [--limit N]',
  summary: `Recent requests, newest first (default 20); with --state, newest into that state first; STATE is one of ${VIEW_STATES.join(', ')}.`,
  options: { state: { type: 'string' }, limit: { type: 'string' } },
  prepare(input) {
    positionals(input, []);
    const state = stringOption(input, 'state')?.trim().toLowerCase();
    if (state !== undefined && !isState(state)) {
      throw new UsageError(`"${shorten(state)}" is not a request state; use one of ${VIEW_STATES.join(', ')}`);
    }
    const limitText = stringOption(input, 'limit') ?? '20';
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_LIMIT) {
      throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
    }
    return async (ctx) => {
      const shown = await (await ctx.app()).reads.requests(limit, state);
      ctx.answer(requestsText(shown), shown.map(summarise));
    };
  },
};

export const requestsShowCommand: Command = {
  words: ['requests', 'show'],
  args: '<request_id>',
  summary: 'One request and its full history: when, event, by whom, detail; a batch (B-12) also lists its executions.',
  prepare(input) {
    const [given = ''] = positionals(input, ['<request_id>']);
    const id = given.trim().toUpperCase();
    if (!APPROVAL_ID.test(id))
      throw new UsageError(`"${shorten(given)}" is not a request id such as R-1001 (or a batch's, B-12)`);
    return async (ctx) => {
      const app = await ctx.app();
      const record = await app.reads.request(id);
      if (!record) throw new CliError(`No request ${id} under REDIS_PREFIX "${ctx.config.redis.prefix}".`);
      const history = await app.reads.history(id);
      if (record.shape !== 'batch') return ctx.answer(requestShowText(record, history), requestDetail(record, history));
      // A batch lists its executions, one per row, after its history.
      const rows = await app.batches.rows(record);
      const code = record.sealed.display.assetCode ?? '';
      ctx.answer(`${requestShowText(record, history)}\n\nExecutions\n${executionsText(rows, code)}`, {
        ...requestDetail(record, history),
        executions: executionValues(rows),
      });
    };
  },
};
