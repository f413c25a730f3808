/**
 * conversations.history: a channel's top-level messages, newest first, between `oldest` and
 * `latest`, `limit` per page with a cursor; metadata only with `include_all_metadata`, as Slack.
 */
import { messageJson } from './chat-methods.js';
import type { JsonObject } from './types.js';
import { fail, type MethodHandler, str } from './web-api-env.js';

/** A number from a JSON or form-encoded argument ("1700000000.000100", 200). */
const num = (v: unknown): number | undefined => {
  const text = typeof v === 'number' ? String(v) : str(v);
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
};

const history: MethodHandler = (args, env) => {
  const channel = str(args.channel);
  if (!channel) return fail('channel_not_found');
  const known = env.settings.channels.find((c) => c.id === channel);
  if (known?.is_member === false) return fail('not_in_channel');
  const oldest = num(args.oldest);
  const latest = num(args.latest);
  const limit = Math.min(Math.max(num(args.limit) ?? 100, 1), 999);
  const offset = num(str(args.cursor)?.replace(/^offset:/, '')) ?? 0;
  const all = env.store
    .messages(channel)
    .filter((m) => (oldest === undefined || Number(m.ts) > oldest) && (latest === undefined || Number(m.ts) < latest))
    .reverse();
  const page = all.slice(offset, offset + limit);
  const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
  const messages = page.map(
    (m): JsonObject => ({
      ...messageJson(m, env),
      ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
    }),
  );
  const more = offset + limit < all.length;
  return {
    ok: true,
    messages,
    has_more: more,
    response_metadata: { next_cursor: more ? `offset:${offset + limit}` : '' },
  };
};

/** conversations.replies: a thread, parent first, oldest first; metadata only with `include_all_metadata`. */
const replies: MethodHandler = (args, env) => {
  const channel = str(args.channel);
  const ts = str(args.ts);
  if (!channel) return fail('channel_not_found');
  if (!ts) return fail('thread_not_found');
  const known = env.settings.channels.find((c) => c.id === channel);
  if (known?.is_member === false) return fail('not_in_channel');
  const parent = env.store.messages(channel).find((m) => m.ts === ts);
  if (!parent) return fail('thread_not_found');
  const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
  const messages = [parent, ...env.store.thread(channel, ts)].map(
    (m): JsonObject => ({
      ...messageJson(m, env),
      ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
    }),
  );
  return { ok: true, messages, has_more: false, response_metadata: { next_cursor: '' } };
};

export const historyMethods: Record<string, MethodHandler> = {
  'conversations.history': history,
  'conversations.replies': replies,
};
