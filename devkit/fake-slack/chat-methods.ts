/** chat.* methods: post, post ephemeral, update, delete, permalink. */
import { fillBlockIds } from './fill-ids.js';
import type { JsonObject, StoredMessage } from './types.js';
import { type ApiResult, fail, type MethodHandler, str, type WebApiEnv } from './web-api-env.js';

/** A stored message as Slack's API shows it (`message` of chat.postMessage). */
export function messageJson(message: StoredMessage, env: WebApiEnv): JsonObject {
  const { settings } = env;
  return {
    type: 'message',
    text: message.text,
    user: message.user,
    bot_id: message.bot_id,
    app_id: settings.appId,
    team: settings.teamId,
    blocks: message.blocks,
    ts: message.ts,
    ...(message.thread_ts === undefined ? {} : { thread_ts: message.thread_ts }),
    ...(message.edited === undefined ? {} : { edited: message.edited }),
    ...(message.files === undefined ? {} : { files: message.files }),
  };
}

function checkChannel(channel: string, env: WebApiEnv): ApiResult | undefined {
  const known = env.settings.channels.find((c) => c.id === channel);
  if (known?.is_member === false) return fail('not_in_channel');
  return undefined;
}

/** Resolves the thread a reply belongs to: replying to a reply threads under its parent. */
function threadOf(channel: string, args: JsonObject, env: WebApiEnv): { threadTs?: string; error?: ApiResult } {
  const threadTs = str(args.thread_ts);
  if (threadTs === undefined || threadTs === '') return {};
  const parent = env.store.findMessage(channel, threadTs);
  // Stricter than Slack, which posts an unknown thread_ts as a top-level message: that is always a bug here.
  if (!parent) return { error: fail('thread_not_found') };
  return { threadTs: parent.thread_ts ?? parent.ts };
}

/** Slack's message metadata: an event type and a payload object. */
const isMetadata = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && typeof (v as JsonObject).event_type === 'string';

export function newMessage(channel: string, args: JsonObject, env: WebApiEnv, threadTs?: string): StoredMessage {
  return {
    ts: env.ids.messageTs(),
    channel,
    user: env.settings.botUserId,
    bot_id: env.settings.botId,
    text: str(args.text) ?? '',
    blocks: fillBlockIds(args.blocks, env.ids),
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
    ...(isMetadata(args.metadata) ? { metadata: args.metadata } : {}),
  };
}

const messagePayload = (args: JsonObject): JsonObject => ({
  text: args.text,
  blocks: args.blocks,
  attachments: args.attachments,
});

const postMessage: MethodHandler = (args, env) => {
  const channel = str(args.channel);
  if (!channel) return fail('channel_not_found');
  const bad = checkChannel(channel, env) ?? env.checkLimits('chat.postMessage', 'message', messagePayload(args));
  if (bad) return bad;
  const thread = threadOf(channel, args, env);
  if (thread.error) return thread.error;
  const message = newMessage(channel, args, env, thread.threadTs);
  env.store.addMessage(message);
  return { ok: true, channel, ts: message.ts, message: messageJson(message, env) };
};

const postEphemeral: MethodHandler = (args, env) => {
  const channel = str(args.channel);
  const user = str(args.user);
  if (!channel) return fail('channel_not_found');
  if (!user) return fail('user_not_found');
  const bad = checkChannel(channel, env) ?? env.checkLimits('chat.postEphemeral', 'message', messagePayload(args));
  if (bad) return bad;
  const thread = threadOf(channel, args, env);
  if (thread.error) return thread.error;
  const message = { ...newMessage(channel, args, env, thread.threadTs), recipient: user };
  env.store.addEphemeral(message);
  return { ok: true, message_ts: message.ts };
};

const update: MethodHandler = (args, env) => {
  const channel = str(args.channel) ?? '';
  const ts = str(args.ts) ?? '';
  const current = env.store.findMessage(channel, ts);
  if (!current) return fail('message_not_found');
  // Slack keeps the blocks when an update leaves `blocks` out.
  const next = { text: str(args.text) ?? current.text, blocks: args.blocks ?? current.blocks };
  const rejected = env.checkLimits('chat.update', 'message', { ...next, attachments: args.attachments });
  if (rejected) return rejected;
  const updated = env.store.updateMessage(channel, ts, {
    text: next.text,
    blocks: fillBlockIds(next.blocks, env.ids),
    editedTs: env.ids.messageTs(),
  });
  if (!updated) return fail('message_not_found');
  return { ok: true, channel, ts, text: updated.text, message: messageJson(updated, env) };
};

const remove: MethodHandler = (args, env) => {
  const channel = str(args.channel) ?? '';
  const ts = str(args.ts) ?? '';
  return env.store.deleteMessage(channel, ts) ? { ok: true, channel, ts } : fail('message_not_found');
};

const getPermalink: MethodHandler = (args, env) => {
  const channel = str(args.channel) ?? '';
  const ts = str(args.message_ts) ?? '';
  const message = env.store.findMessage(channel, ts);
  if (!message) return fail('message_not_found');
  const base = `https://${env.settings.teamDomain}.slack.local/archives/${channel}/p${ts.replace('.', '')}`;
  const inThread = message.thread_ts !== undefined && message.thread_ts !== message.ts;
  const permalink = inThread ? `${base}?thread_ts=${message.thread_ts}&cid=${channel}` : base;
  return { ok: true, channel, permalink };
};

export const chatMethods: Record<string, MethodHandler> = {
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': remove,
  'chat.getPermalink': getPermalink,
};
