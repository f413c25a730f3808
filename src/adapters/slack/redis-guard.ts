/**
 * While Redis is down or stalled every Slack request is still answered with one sentence,
 * never Slack's error page. The request connection fails within about a
 * second (store/redis.ts), the listener's error reaches this global middleware, and:
 * - not yet acknowledged: the ack carries the sentence (command reply, modal field error,
 *   empty option list);
 * - already acknowledged: the person gets it privately, worded so it never claims that
 *   nothing changed (the listener may have saved something before the failure).
 */
import { type AnyMiddlewareArgs, type App, ErrorCode } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { describeRedisFailure, REDIS_NO_ANSWER_TEXT, redisFailure } from '../../app/unavailable.js';
import type { Deps } from './deps.js';
import { noteOnSandbox } from './web-api/sandbox-note.js';

interface Body {
  type?: string;
  command?: string;
  user?: { id?: string };
  user_id?: string;
  channel?: { id?: string };
  channel_id?: string;
  response_url?: string;
  view?: { blocks?: { type?: string; block_id?: string }[] };
}

const isMultipleAck = (err: unknown): boolean =>
  (err as { code?: unknown } | undefined)?.code === ErrorCode.ReceiverMultipleAckError;

/** What to acknowledge with, for each kind of Slack request, carrying `text`. */
function ackFor(body: Body, text: string): Record<string, unknown> | undefined {
  if (body.command) return { response_type: 'ephemeral', text };
  if (body.type === 'view_submission') {
    // Shown under the form's first input: the person keeps what they typed and can resubmit.
    const field = body.view?.blocks?.find((b) => b.type === 'input' && b.block_id)?.block_id;
    if (field) return { response_action: 'errors', errors: { [field]: text } };
    return undefined;
  }
  if (body.type === 'block_suggestion') return { options: [] };
  return undefined;
}

async function tellPrivately(client: WebClient, deps: Deps, body: Body, text: string): Promise<void> {
  const user = body.user?.id ?? body.user_id;
  const channel = body.channel?.id ?? body.channel_id;
  if (!user) return;
  // No channel (a modal): a direct message from the bot, posting to the user id opens it.
  await (channel
    ? client.chat.postEphemeral({ channel, user, text })
    : client.chat.postMessage({ channel: user, text })
  )
    .then(() => undefined)
    .catch((err: unknown) => deps.log.warn({ err }, 'could not tell the person Redis is unreachable'));
}

export function registerRedisGuard(app: App, deps: Deps): void {
  app.use(async (args) => {
    const { next } = args;
    const client = noteOnSandbox(args.client, deps.sandbox);
    try {
      await next();
    } catch (err) {
      const failure = redisFailure(err);
      if (!failure) throw err;
      deps.log.warn({ err }, 'a Slack request failed: Redis is unreachable or did not answer');
      const body = args.body as Body;
      const ack = (args as AnyMiddlewareArgs & { ack?: (r?: unknown) => Promise<void> }).ack;
      const text = describeRedisFailure(failure);
      if (ack) {
        const answer = ackFor(body, text);
        try {
          await ack(answer);
          if (answer) return;
          // Acknowledged just now without a message (a click, an event): say it privately.
          await tellPrivately(client, deps, body, text);
          return;
        } catch (ackErr) {
          if (!isMultipleAck(ackErr)) throw ackErr;
        }
      }
      await tellPrivately(client, deps, body, REDIS_NO_ANSWER_TEXT);
    }
  });
}
