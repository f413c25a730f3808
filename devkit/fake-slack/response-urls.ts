/**
 * response_url handling: Slack lets an app post to one up to five times within 30 minutes
 * (https://docs.slack.dev/interactivity/handling-user-interaction#message_responses).
 * The same rules apply to a message sent back in a slash command's acknowledgement.
 */
import { newMessage } from './chat-methods.js';
import { fillBlockIds } from './fill-ids.js';
import type { JsonObject, ResponseUrlContext } from './types.js';
import { type ApiResult, fail, str, type WebApiEnv } from './web-api-env.js';

export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;

/** Where a response goes, and what it posted last (so `replace_original` can target it). */
export interface ResponseTarget {
  context: ResponseUrlContext;
  lastPosted?: { ts: string; ephemeral: boolean };
}

interface Entry extends ResponseTarget {
  issuedAt: number;
  uses: number;
}

function original(target: ResponseTarget): { ts: string; ephemeral: boolean } | undefined {
  const { messageTs, ephemeral } = target.context;
  if (messageTs !== undefined) return { ts: messageTs, ephemeral: ephemeral ?? false };
  return target.lastPosted;
}

/** Applies a message response the way Slack does: replace or delete the original, or post anew. */
export function applyMessageResponse(
  target: ResponseTarget,
  body: JsonObject,
  env: WebApiEnv,
  method: string,
): ApiResult {
  const { context } = target;
  const previous = original(target);
  if (body.delete_original === true) {
    if (!previous) return fail('message_not_found');
    const deleted = previous.ephemeral
      ? env.store.deleteEphemeral(previous.ts)
      : env.store.deleteMessage(context.channel, previous.ts);
    return deleted ? { ok: true } : fail('message_not_found');
  }
  const payload = { text: body.text, blocks: body.blocks, attachments: body.attachments };
  const rejected = env.checkLimits(method, 'message', payload);
  if (rejected) return rejected;
  if (body.replace_original === true && previous) {
    const patch = { text: str(body.text) ?? '', blocks: fillBlockIds(body.blocks, env.ids) };
    const replaced = previous.ephemeral
      ? env.store.updateEphemeral(previous.ts, patch)
      : env.store.updateMessage(context.channel, previous.ts, { ...patch, editedTs: env.ids.messageTs() });
    return replaced ? { ok: true } : fail('message_not_found');
  }
  const threadTs = str(body.thread_ts) ?? context.threadTs;
  const message = newMessage(context.channel, body, env, threadTs);
  if (body.response_type === 'in_channel') {
    env.store.addMessage(message);
    target.lastPosted = { ts: message.ts, ephemeral: false };
  } else {
    env.store.addEphemeral({ ...message, recipient: context.user });
    target.lastPosted = { ts: message.ts, ephemeral: true };
  }
  return { ok: true };
}

export class ResponseUrls {
  #entries = new Map<string, Entry>();

  issue(id: string, context: ResponseUrlContext, now: number): void {
    this.#entries.set(id, { context, issuedAt: now, uses: 0 });
  }

  /** Handles one POST to a response URL; `status` is the HTTP status Slack would answer with. */
  post(id: string, body: JsonObject, env: WebApiEnv): { status: number; result: ApiResult } {
    const entry = this.#entries.get(id);
    if (!entry) return { status: 404, result: fail('invalid_url') };
    if (env.settings.clock() - entry.issuedAt > RESPONSE_URL_TTL_MS)
      return { status: 404, result: fail('expired_url') };
    if (entry.uses >= RESPONSE_URL_MAX_USES) return { status: 404, result: fail('used_url') };
    entry.uses += 1;
    const result = applyMessageResponse(entry, body, env, 'response_url');
    const status = result.ok ? 200 : result.error === 'invalid_blocks' ? 400 : 404;
    return { status, result };
  }

  reset(): void {
    this.#entries.clear();
  }
}
