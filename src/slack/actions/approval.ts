/**
 * Approve / Deny / Cancel on a card. Authorisation is decided here, on the server, at every
 * click; the button carries only the request id, never what to execute (DESIGN invariant 2).
 */
import type { App, BlockButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { REQUEST_ID, type RequestRecord } from '../../domain/request.js';
import { APPROVAL_ACTIONS } from '../blocks/card.js';
import { slackDate, withSandboxText } from '../blocks/common.js';
import type { Deps } from '../deps.js';
import { denyModal } from '../views/deny.js';

export function lateClickText(record: RequestRecord): string {
  const at = record.decidedAt ? ` at ${slackDate(record.decidedAt, '{time}')}` : '';
  const by = record.decidedBy ? ` by <@${record.decidedBy}>` : '';
  switch (record.state) {
    case 'approved':
    case 'executing':
    case 'succeeded':
    case 'failed':
    case 'unknown':
      return `${record.frozen.id} was already approved${by}${at} (now ${record.state}).`;
    case 'denied':
      return `${record.frozen.id} was already denied${by}${at}.`;
    case 'cancelled':
      return `${record.frozen.id} was cancelled by the requester.`;
    case 'expired':
      return `${record.frozen.id} expired at ${slackDate(record.frozen.expiresAt, '{time}')}; nothing can be decided on it any more.`;
    default:
      return `${record.frozen.id} is ${record.state}.`;
  }
}

interface Click {
  user: string;
  channel: string | undefined;
  requestId: string | undefined;
}

function readClick(body: BlockButtonAction, action: { value?: string }): Click {
  return {
    user: body.user.id,
    channel: body.channel?.id,
    requestId: action.value && REQUEST_ID.test(action.value) ? action.value : undefined,
  };
}

async function tell(client: WebClient, deps: Deps, click: Click, text: string): Promise<void> {
  try {
    await client.chat.postEphemeral({
      channel: click.channel ?? deps.config.approvalsChannel,
      user: click.user,
      text: withSandboxText(text, deps.sandbox),
    });
  } catch (err) {
    deps.log.warn({ err }, 'could not send a private reply');
  }
}

/** Checked on the server at every click; anyone else is told so and nothing changes. */
async function authorised(client: WebClient, deps: Deps, click: Click): Promise<boolean> {
  if (await deps.approvers.isApprover(click.user)) return true;
  await tell(client, deps, click, 'You are not an approver for this, so nothing changed.');
  return false;
}

export function registerApprovalActions(app: App, deps: Deps): void {
  app.action<BlockButtonAction>(APPROVAL_ACTIONS.approve, async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    if (!(await authorised(client, deps, click))) return;
    const outcome = await deps.store.vote(click.requestId, click.user);
    const record = await deps.store.get(click.requestId);
    if (!record) return;
    switch (outcome) {
      case 'self':
        await tell(
          client,
          deps,
          click,
          `You requested ${record.frozen.id}, so you cannot approve it; another approver must.`,
        );
        return;
      case 'duplicate':
        await tell(
          client,
          deps,
          click,
          `You have already approved ${record.frozen.id}; it needs ${record.frozen.requiredApprovals - record.votes.length} more approval(s) from someone else.`,
        );
        return;
      case 'not_pending':
      case 'expired':
        await tell(client, deps, click, lateClickText(record));
        return;
      case 'voted':
        deps.log.info({ requestId: record.frozen.id, by: click.user }, 'approval recorded');
        await deps.queues.notify({ requestId: record.frozen.id, kind: 'card' });
        return;
      case 'approved':
        deps.log.info({ requestId: record.frozen.id, by: click.user }, 'request approved; queueing');
        await deps.store.appendHistory(record.frozen.id, { at: deps.now(), event: 'queued' });
        await deps.queues.enqueueExecution(record.frozen.id);
        await deps.queues.notify({ requestId: record.frozen.id, kind: 'card' });
        return;
      case 'missing':
        return;
    }
  });

  app.action<BlockButtonAction>(APPROVAL_ACTIONS.deny, async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    if (!(await authorised(client, deps, click))) return;
    const record = await deps.store.get(click.requestId);
    if (!record) return;
    if (record.state !== 'pending') {
      await tell(client, deps, click, lateClickText(record));
      return;
    }
    try {
      await client.views.open({ trigger_id: body.trigger_id, view: denyModal(record.frozen.id, click.channel) });
    } catch (err) {
      deps.log.error({ err }, 'could not open the deny modal');
    }
  });

  app.action<BlockButtonAction>(APPROVAL_ACTIONS.cancel, async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    const record = await deps.store.get(click.requestId);
    if (!record) return;
    if (record.frozen.requester !== click.user) {
      await tell(
        client,
        deps,
        click,
        `Only the requester, <@${record.frozen.requester}>, can cancel ${record.frozen.id}. Approvers can deny it instead.`,
      );
      return;
    }
    const r = await deps.store.transition(
      record.frozen.id,
      ['pending'],
      'cancelled',
      { event: 'cancelled', by: click.user },
      { decidedBy: click.user, decidedAt: String(deps.now()) },
    );
    if (!r.ok) {
      await tell(client, deps, click, lateClickText((await deps.store.get(record.frozen.id)) ?? record));
      return;
    }
    await deps.queues.notify({ requestId: record.frozen.id, kind: 'outcome' });
  });
}
