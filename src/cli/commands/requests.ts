/** `rampart requests` and `requests show`: the approval requests Rampart keeps in Redis. */
import { REQUEST_ID, REQUEST_STATES, type RequestRecord, type RequestState } from '../../domain/request.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import { requestDetail, requestShowText, requestsText, summarise } from '../format-requests.js';
import { CliError, UsageError } from '../problems.js';

// With --state the newest this many are searched: the recent index has no per-state view.
const SEARCH_DEPTH = 1000;
const isState = (s: string): s is RequestState => (REQUEST_STATES as readonly string[]).includes(s);

export const requestsCommand: Command = {
  words: ['requests'],
  args: '[--state STATE] [--limit N]',
  summary: `Recent requests, newest first (default 20); STATE is one of ${REQUEST_STATES.join(', ')}.`,
  options: { state: { type: 'string' }, limit: { type: 'string' } },
  prepare(input) {
    positionals(input, []);
    const state = stringOption(input, 'state')?.trim().toLowerCase();
    if (state !== undefined && !isState(state)) {
      throw new UsageError(`"${shorten(state)}" is not a request state; use one of ${REQUEST_STATES.join(', ')}`);
    }
    const limitText = stringOption(input, 'limit') ?? '20';
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > SEARCH_DEPTH) {
      throw new UsageError(`--limit must be a whole number from 1 to ${SEARCH_DEPTH}`);
    }
    return async (ctx) => {
      const store = await ctx.store();
      const ids = await store.recentIds(state === undefined ? limit : SEARCH_DEPTH);
      const records = (await Promise.all(ids.map((id) => store.get(id)))).filter(
        (r): r is RequestRecord => r !== undefined && (state === undefined || r.state === state),
      );
      const shown = records.slice(0, limit);
      ctx.answer(requestsText(shown), shown.map(summarise));
    };
  },
};

export const requestsShowCommand: Command = {
  words: ['requests', 'show'],
  args: '<request_id>',
  summary: 'One request and its full history: when, event, by whom, detail.',
  prepare(input) {
    const [given = ''] = positionals(input, ['<request_id>']);
    const id = given.trim().toUpperCase();
    if (!REQUEST_ID.test(id)) throw new UsageError(`"${shorten(given)}" is not a request id such as R-1001`);
    return async (ctx) => {
      const store = await ctx.store();
      const record = await store.get(id);
      if (!record) throw new CliError(`No request ${id} under REDIS_PREFIX "${ctx.config.redis.prefix}".`);
      const history = await store.history(id);
      ctx.answer(requestShowText(record, history), requestDetail(record, history));
    };
  },
};
