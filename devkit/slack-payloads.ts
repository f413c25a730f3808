/**
 * Request bodies as Slack sends them to an app's request URL: slash commands as form fields
 * (https://docs.slack.dev/interactivity/implementing-slash-commands#app_command_handling) and
 * interactions as a form field `payload` holding JSON
 * (https://docs.slack.dev/reference/interaction-payloads). Pure: no I/O, no clock.
 */
import type { JsonObject, StoredEphemeral, StoredMessage, StoredView } from './fake-slack/types.js';

/** Who is acting, in which workspace, for which app. */
export interface PayloadContext {
  team: { id: string; domain: string };
  user: { id: string; name: string };
  apiAppId: string;
  /** The deprecated verification token; Bolt verifies signatures instead. */
  token: string;
}

/** A view as sent in payloads: the stored view with the user's current `state`. */
export type ViewPayload = StoredView;

export type ActionSource =
  | {
      kind: 'message';
      channel: { id: string; name: string };
      message: StoredMessage | StoredEphemeral;
      responseUrl: string;
    }
  | { kind: 'view'; view: ViewPayload };

const userJson = (ctx: PayloadContext) => ({
  id: ctx.user.id,
  username: ctx.user.name,
  name: ctx.user.name,
  team_id: ctx.team.id,
});

const common = (ctx: PayloadContext) => ({
  team: { id: ctx.team.id, domain: ctx.team.domain },
  user: userJson(ctx),
  api_app_id: ctx.apiAppId,
  token: ctx.token,
  is_enterprise_install: false,
  enterprise: null,
});

export const isEphemeral = (m: StoredMessage | StoredEphemeral): m is StoredEphemeral => 'recipient' in m;

export function slashCommandFields(
  ctx: PayloadContext,
  input: {
    command: string;
    text: string;
    channel: { id: string; name: string };
    responseUrl: string;
    triggerId: string;
  },
): Record<string, string> {
  return {
    token: ctx.token,
    team_id: ctx.team.id,
    team_domain: ctx.team.domain,
    channel_id: input.channel.id,
    channel_name: input.channel.name,
    user_id: ctx.user.id,
    user_name: ctx.user.name,
    command: input.command,
    text: input.text,
    api_app_id: ctx.apiAppId,
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  };
}

function messageJson(message: StoredMessage, teamId: string): JsonObject {
  return {
    type: 'message',
    user: message.user,
    bot_id: message.bot_id,
    text: message.text,
    blocks: message.blocks,
    ts: message.ts,
    team: teamId,
    ...(message.thread_ts === undefined ? {} : { thread_ts: message.thread_ts }),
  };
}

/** A click (or selection) on an interactive element of a message, modal or App Home. */
export function blockActionsPayload(
  ctx: PayloadContext,
  input: { triggerId: string; source: ActionSource; action: JsonObject },
): JsonObject {
  const { source } = input;
  const base = { type: 'block_actions', ...common(ctx), trigger_id: input.triggerId, actions: [input.action] };
  if (source.kind === 'view') {
    return { ...base, container: { type: 'view', view_id: source.view.id }, view: source.view };
  }
  const { message, channel } = source;
  const ephemeral = isEphemeral(message);
  return {
    ...base,
    container: { type: 'message', message_ts: message.ts, channel_id: channel.id, is_ephemeral: ephemeral },
    channel,
    // Slack does not echo an ephemeral message's content back.
    ...(ephemeral ? {} : { message: messageJson(message, ctx.team.id) }),
    state: { values: {} },
    response_url: source.responseUrl,
  };
}

export function viewSubmissionPayload(
  ctx: PayloadContext,
  input: { triggerId: string; view: ViewPayload },
): JsonObject {
  return { type: 'view_submission', ...common(ctx), trigger_id: input.triggerId, view: input.view, response_urls: [] };
}

export function viewClosedPayload(ctx: PayloadContext, input: { view: ViewPayload; isCleared: boolean }): JsonObject {
  return { type: 'view_closed', ...common(ctx), view: input.view, is_cleared: input.isCleared };
}

/** An external select asking for options as the user types. */
export function blockSuggestionPayload(
  ctx: PayloadContext,
  input: { view: ViewPayload; actionId: string; blockId: string; value: string },
): JsonObject {
  return {
    type: 'block_suggestion',
    ...common(ctx),
    container: { type: 'view', view_id: input.view.id },
    action_id: input.actionId,
    block_id: input.blockId,
    value: input.value,
    view: input.view,
  };
}

/** An Events API delivery (https://docs.slack.dev/apis/events-api#callback-field), sent as JSON. */
export function eventCallbackPayload(
  ctx: PayloadContext,
  input: { event: JsonObject; eventId: string; eventTime: number; botUserId: string },
): JsonObject {
  return {
    token: ctx.token,
    team_id: ctx.team.id,
    api_app_id: ctx.apiAppId,
    event: input.event,
    type: 'event_callback',
    event_id: input.eventId,
    event_time: input.eventTime,
    authorizations: [
      {
        enterprise_id: null,
        team_id: ctx.team.id,
        user_id: input.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

export const formBody = (fields: Readonly<Record<string, string>>): string => new URLSearchParams(fields).toString();

/** Interactions arrive form-encoded with the JSON in a single `payload` field. */
export const interactionBody = (payload: JsonObject): string => formBody({ payload: JSON.stringify(payload) });
