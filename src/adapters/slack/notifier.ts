/**
 * The Slack side of the workers' notifier port (queue/notifier.ts): Block Kit from
 * slack/blocks/, delivered with the one WebClient; Slack's rate limit and admin-only errors are
 * turned into the port's errors so the processor can reschedule or report.
 */
import type { WebClient } from '@slack/web-api';
import { waitsForEntryReply } from '../../domain/address-book.js';
import type { CardCommitments } from '../../domain/commitments.js';
import type { FreezeState } from '../../domain/freeze-state.js';
import type { RequestRecord } from '../../domain/request.js';
import type { Logger } from '../../log.js';
import { pauseNoticeText } from '../../presenters/batch-pause.js';
import { seriesReplyText } from '../../presenters/series-thread.js';
import { type CardRef, NeedsAdminError, type Notifier, RateLimitedError } from '../jobs/notifier.js';
import { postFinished, postProgress, uploadRows } from './batch-thread.js';
import { requestCardBlocks } from './blocks/card.js';
import { notSentReply, outcomeReply } from './blocks/card-replies.js';
import { cardText } from './blocks/card-summary.js';
import { esc } from './blocks/common.js';
import { proposalReply } from './blocks/not-paid.js';
import { escalationText, reminderText, requestedText, requesterText } from './blocks/reminders.js';
import { screenedNotice, screenedReply } from './blocks/screened.js';
import { runNoticeMessage } from './blocks/series-notice.js';

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

/** The metadata event type of an outcome reply: its request id and state (never two replies). */
const REPLY_EVENT = 'rampart_request_outcome';

/** The metadata event type that marks a card with its request id (never two cards). */
export const CARD_EVENT = 'rampart_request_card';
/** Pages of 200 messages searched for a card posted since the first attempt. */
const HISTORY_PAGES = 5;

/** 429 means Slack did not act on the call; anything an admin must fix is said as such. */
async function deliver<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as { code?: string; retryAfter?: number; data?: { error?: string } };
    if (e.code === 'slack_webapi_rate_limited_error') throw new RateLimitedError(Math.max(1, e.retryAfter ?? 1) * 1000);
    const code = e.data?.error;
    if (code && NEEDS_ADMIN.has(code)) throw new NeedsAdminError(code, { cause: err });
    throw err;
  }
}

export interface SlackNotifierOptions {
  client: WebClient;
  approvalsChannel: string;
  log: Logger;
  /** The freeze banner on open cards. */
  controls?: { freeze(): Promise<FreezeState | undefined> };
  /** APPROVERS (users and user groups): a not-paid proposal's reply mentions them. */
  approvers?: readonly string[];
  /** SCREENING_NOTIFY: a user group mentioned in, or a channel sent, every screening hit. */
  screeningNotify?: string | undefined;
  /** What else is promised from a pending payment's wallet and asset (app/commitments.ts). */
  commitments?: (record: RequestRecord) => Promise<CardCommitments | undefined>;
  /** Approvers whose passkey counts now (app/passkey-holders.ts), for a step-up card's quorum. */
  passkeyHolders?: () => Promise<string[]>;
  /** A live series' next run still to come (app/series/reads.ts), for its card's Skip next run. */
  seriesNext?: (record: RequestRecord) => Promise<{ k: number; at: number } | undefined>;
}

export function slackNotifier({
  client,
  approvalsChannel,
  log,
  controls,
  approvers = [],
  commitments,
  passkeyHolders,
  screeningNotify,
  seriesNext,
}: SlackNotifierOptions): Notifier {
  const drawCard = async (record: RequestRecord) => {
    const freeze = await controls?.freeze();
    const promised = await commitments?.(record);
    const holders = record.sealed.stepUp && record.state === 'pending' ? await passkeyHolders?.() : undefined;
    const next =
      record.shape === 'series' && (record.approvalState as string) === 'live' ? await seriesNext?.(record) : undefined;
    return {
      text: cardText(record, freeze),
      blocks: requestCardBlocks(record, {
        freeze,
        approvers,
        commitments: promised,
        passkeyHolders: holders,
        seriesNext: next,
      }),
    };
  };
  const linkTo = async (card: CardRef): Promise<string> =>
    (await deliver(() => client.chat.getPermalink({ channel: card.channel, message_ts: card.ts }))).permalink ?? '';
  return {
    async postCard(record) {
      const drawn = await drawCard(record);
      const posted = await deliver(() =>
        client.chat.postMessage({
          channel: approvalsChannel,
          ...drawn,
          unfurl_links: false,
          metadata: { event_type: CARD_EVENT, event_payload: { request_id: record.sealed.id } },
        }),
      );
      return { channel: posted.channel ?? approvalsChannel, ts: posted.ts ?? '' };
    },
    async findCard(record, sinceMs) {
      // Needs channels:history (groups:history for a private channel), see manifest.yml.
      let cursor: string | undefined;
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const r = await deliver(() =>
          client.conversations.history({
            channel: approvalsChannel,
            oldest: (sinceMs / 1000).toFixed(6),
            include_all_metadata: true,
            limit: 200,
            ...(cursor ? { cursor } : {}),
          }),
        );
        const hit = (r.messages ?? []).find(
          (m) =>
            m.metadata?.event_type === CARD_EVENT &&
            (m.metadata.event_payload as { request_id?: unknown } | undefined)?.request_id === record.sealed.id,
        );
        if (hit?.ts) return { channel: approvalsChannel, ts: hit.ts };
        cursor = r.response_metadata?.next_cursor || undefined;
        if (!cursor) return undefined;
      }
      return undefined;
    },
    async updateCard(record, { channel, ts }) {
      const drawn = await drawCard(record);
      await deliver(() => client.chat.update({ channel, ts, ...drawn }));
    },
    async postSeriesReply(card, reply) {
      const text = seriesReplyText(reply, { name: (user) => `<@${user}>`, plain: esc });
      await deliver(() => client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, text }));
    },
    async postRunNotice(record, card, run) {
      const message = runNoticeMessage(record, run);
      if (!message) return;
      await deliver(() => client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, ...message }));
    },
    async postNotSent(record, card: CardRef) {
      await deliver(() =>
        client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, text: notSentReply(record) }),
      );
    },
    async postScreened(card, executionId, why) {
      const group = screeningNotify?.startsWith('S') ? [screeningNotify] : [];
      const said = screenedReply(executionId, why, [...approvers, ...group]);
      await deliver(() => client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, text: said }));
      if (screeningNotify && !screeningNotify.startsWith('S')) {
        const link = await linkTo(card);
        await deliver(() =>
          client.chat.postMessage({ channel: screeningNotify, text: screenedNotice(executionId, why, link) }),
        );
      }
    },
    async postProposal(record, card, execution) {
      await deliver(() =>
        client.chat.postMessage({
          channel: card.channel,
          thread_ts: card.ts,
          text: proposalReply(record, execution, approvers),
          unfurl_links: false,
        }),
      );
    },
    async postOutcome(record, card: CardRef) {
      const reply = await deliver(() =>
        client.chat.postMessage({
          channel: card.channel,
          thread_ts: card.ts,
          text: outcomeReply(record),
          unfurl_links: false,
          metadata: { event_type: REPLY_EVENT, event_payload: { request_id: record.sealed.id, state: record.state } },
        }),
      );
      return reply.ts ?? '';
    },
    async findOutcome(record, card) {
      // The same history scopes as findCard; a thread holds a handful of replies.
      const r = await deliver(() =>
        client.conversations.replies({ channel: card.channel, ts: card.ts, include_all_metadata: true, limit: 200 }),
      );
      const hit = (r.messages ?? []).find((m) => {
        const p = m.metadata?.event_type === REPLY_EVENT ? (m.metadata.event_payload as Record<string, unknown>) : {};
        return p.request_id === record.sealed.id && p.state === record.state;
      });
      return hit?.ts;
    },
    async confirmPosted(record: RequestRecord, card) {
      const { id, requester, origin } = record.sealed;
      try {
        const permalink = await client.chat.getPermalink({ channel: card.channel, message_ts: card.ts });
        await client.chat.postEphemeral({
          channel: origin ?? card.channel,
          user: requester,
          text: requestedText(record, permalink.permalink ?? ''),
        });
      } catch (err) {
        // The card is up; a missing confirmation must not re-post it.
        log.warn({ err, requestId: id }, 'could not confirm to the requester');
      }
    },
    // Direct messages go to the user id as channel (chat:write; the app's Messages tab).
    async remind(record, card, user, n) {
      const permalink = await linkTo(card);
      await deliver(() => client.chat.postMessage({ channel: user, text: reminderText(record, permalink, n) }));
    },
    async coolingNotice(_record, card, user, text) {
      const permalink = await linkTo(card);
      await deliver(() =>
        client.chat.postMessage({
          channel: user,
          text: `:lock: Address book: ${text}${permalink ? ` <${permalink}|The card>` : ''}`,
        }),
      );
    },
    async postWaiting(entryCard, requestId) {
      await deliver(() =>
        client.chat.postMessage({
          channel: entryCard.channel,
          thread_ts: entryCard.ts,
          text: `:hourglass: ${waitsForEntryReply(requestId)}`,
        }),
      );
    },
    async escalate(record, card, user) {
      const permalink = await linkTo(card);
      await deliver(() => client.chat.postMessage({ channel: user, text: escalationText(record, permalink) }));
    },
    async batchRows(record, card, rows) {
      await deliver(() => uploadRows(client, record, card, rows));
    },
    async batchPaused(record, card, facts) {
      await deliver(() =>
        client.chat.postMessage({
          channel: card.channel,
          thread_ts: card.ts,
          text: pauseNoticeText({ record, ...facts, approvers }),
          reply_broadcast: true,
          unfurl_links: false,
        }),
      );
    },
    async batchProgress(record, card, ts) {
      return deliver(() => postProgress(client, record, card, ts));
    },
    async batchFinished(record, card, rows) {
      await deliver(() => postFinished(client, record, card, rows));
    },
    async tellRequester(record, card, milestone) {
      const message = requesterText(record, await linkTo(card), milestone);
      if (!message) return;
      await deliver(() =>
        client.chat.postMessage({ channel: record.sealed.requester, text: message, unfurl_links: false }),
      );
    },
    async cardUnpostable(record, problem) {
      const { id, requester, origin } = record.sealed;
      if (!origin) return;
      await client.chat
        .postEphemeral({
          channel: origin,
          user: requester,
          text: `:warning: Your request ${id} is saved, but its approval card cannot be posted (Slack says \`${problem}\`). Ask an admin to invite Rampart to the approvals channel or check APPROVALS_CHANNEL; Rampart keeps trying until the request expires.`,
        })
        .catch((e: unknown) => log.warn({ err: e }, 'could not tell the requester about the card'));
    },
  };
}
