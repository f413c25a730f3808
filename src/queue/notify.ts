/**
 * Posts and refreshes the card, and posts each outcome once in its thread. Runs as a durable
 * job: a Slack failure or rate limit retries the job; a reply is never dropped, and a reply
 * already posted is not posted again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';
import { cardText, outcomeReply, requestCardBlocks } from '../slack/blocks/card.js';
import { withSandboxText } from '../slack/blocks/common.js';
import type { ControlStore } from '../store/controls.js';
import type { RequestStore } from '../store/requests.js';
import type { NotifyJob } from './queues.js';

export interface NotifyDeps {
  slack: WebClient;
  store: RequestStore;
  log: Logger;
  approvalsChannel: string;
  sandbox: boolean;
  /** Issue 13: the freeze banner on open cards. */
  controls?: ControlStore;
}

const MAX_INLINE_WAITS = 3;

/** 429 means Slack did not act on the call, so waiting and calling again cannot double-post. */
export async function withRateLimit<T>(call: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await call();
    } catch (err) {
      const retryAfter =
        (err as { code?: string; retryAfter?: number }).code === 'slack_webapi_rate_limited_error'
          ? (err as { retryAfter: number }).retryAfter
          : undefined;
      if (retryAfter === undefined || i >= MAX_INLINE_WAITS) throw err;
      await sleep(Math.max(1, retryAfter) * 1000);
    }
  }
}

export async function notify(deps: NotifyDeps, job: NotifyJob): Promise<void> {
  const { slack, store } = deps;
  const record = await store.get(job.requestId);
  if (!record) {
    deps.log.error({ requestId: job.requestId }, 'notify: request missing');
    return;
  }
  const blocks = requestCardBlocks(record, deps.sandbox, { freeze: await deps.controls?.freeze() });
  const text = cardText(record);
  let card = record.card;
  if (!card) {
    // Two notify jobs can race here; a short claim keeps the card single.
    if (!(await store.claim(record.frozen.id, 'card', 30_000)))
      throw new Error('card is being posted by another job; retrying');
    let posted: { channel?: string; ts?: string };
    try {
      posted = await withRateLimit(() =>
        slack.chat.postMessage({ channel: deps.approvalsChannel, text, blocks, unfurl_links: false }),
      );
    } catch (err) {
      await store.release(record.frozen.id, 'card');
      await reportCardFailure(deps, record.frozen.id, record.frozen.requester, record.frozen.origin, err);
      throw err; // retried with backoff: an admin may fix the channel meanwhile
    }
    card = { channel: posted.channel ?? deps.approvalsChannel, ts: posted.ts ?? '' };
    await store.setCard(record.frozen.id, card);
    await confirmToRequester(deps, record.frozen.id, record.frozen.requester, record.frozen.origin, card);
  } else {
    const { channel, ts } = card;
    await withRateLimit(() => slack.chat.update({ channel, ts, text, blocks }));
  }
  const thread = card;
  if (job.kind === 'card') return;
  const what = `reply-${record.state}`;
  if (await store.wasPosted(record.frozen.id, what)) return;
  const reply = await withRateLimit(() =>
    slack.chat.postMessage({
      channel: thread.channel,
      thread_ts: thread.ts,
      text: withSandboxText(outcomeReply(record), deps.sandbox),
      unfurl_links: false,
    }),
  );
  await store.markPosted(record.frozen.id, what, reply.ts ?? '');
}

/** Slack errors an admin must fix; retrying alone will not help. */
const NEEDS_ADMIN = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'missing_scope',
]);

/** A card that cannot be posted leaves a request nobody can approve: say so, once, loudly. */
async function reportCardFailure(
  deps: NotifyDeps,
  id: string,
  requester: string,
  origin: string | undefined,
  err: unknown,
): Promise<void> {
  const code = (err as { data?: { error?: string } }).data?.error;
  if (!code || !NEEDS_ADMIN.has(code)) return;
  deps.log.error(
    { requestId: id, slackError: code, channel: deps.approvalsChannel },
    'the approval card cannot be posted',
  );
  if (!origin || !(await deps.store.markPosted(id, 'card-failure', String(Date.now())))) return;
  await deps.slack.chat
    .postEphemeral({
      channel: origin,
      user: requester,
      text: withSandboxText(
        `:warning: Your request ${id} is saved, but its approval card cannot be posted (Slack says \`${code}\`). Ask an admin to invite Rampart to the approvals channel or check APPROVALS_CHANNEL; Rampart keeps trying until the request expires.`,
        deps.sandbox,
      ),
    })
    .catch((e: unknown) => deps.log.warn({ err: e }, 'could not tell the requester about the card'));
}

async function confirmToRequester(
  deps: NotifyDeps,
  id: string,
  requester: string,
  origin: string | undefined,
  card: { channel: string; ts: string },
): Promise<void> {
  try {
    const permalink = await deps.slack.chat.getPermalink({ channel: card.channel, message_ts: card.ts });
    await deps.slack.chat.postEphemeral({
      channel: origin ?? card.channel,
      user: requester,
      text: withSandboxText(
        `Your request ${id} is waiting for approval: <${permalink.permalink}|see the card>. You will be mentioned in its thread when it is decided.`,
        deps.sandbox,
      ),
    });
  } catch (err) {
    // The card is up; a missing confirmation must not re-post it.
    deps.log.warn({ err, requestId: id }, 'could not confirm to the requester');
  }
}
