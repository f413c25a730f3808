/**
 * Plays the Slack client: sends signed slash commands and interactions to the app's request URL,
 * with trigger ids and response URLs issued by the fake Web API, measures how long the app takes
 * to acknowledge, and applies acknowledgements to the fake the way Slack would.
 */
import { request } from 'undici';
import type { FakeSlack } from './fake-slack/fake-slack.js';
import type { JsonObject, StoredEphemeral, StoredMessage, StoredView } from './fake-slack/types.js';
import * as P from './slack-payloads.js';
import { signSlackRequest } from './slack-signer.js';
import { actionFor, findElement, type UserInput, viewStateValues } from './view-state.js';

/**
 * How a request reaches the app: signed HTTP to `url` (default), or another way to deliver the
 * same body, such as Socket Mode (socket-transport.ts). Answers what the app acknowledged.
 */
export type DriverTransport = (rawBody: string, contentType: string) => Promise<{ status: number; body: unknown }>;

export interface SlackDriverOptions {
  /** The app's request URL, e.g. `http://127.0.0.1:3000/slack/events`. */
  url: string;
  signingSecret: string;
  fake: FakeSlack;
  teamId?: string;
  /** Channel for commands when none is given. */
  defaultChannelId?: string;
  /** Deliver requests this way instead of signed HTTP (Socket Mode). */
  transport?: DriverTransport;
}

/** Per-request knobs for rejection tests. */
export interface SendOptions {
  /** Sign with this secret instead of the right one. */
  signingSecret?: string;
  /** Sign with this timestamp (seconds), e.g. ten minutes ago. */
  timestampSeconds?: number;
  /** Send no signature headers at all. */
  unsigned?: boolean;
}

export interface DriverResponse {
  status: number;
  /** Parsed JSON when the app answered JSON, else the text ('' for an empty ack). */
  body: unknown;
  /** Wall time from sending to the end of the answer. */
  ackMs: number;
}

export interface ClickInput {
  action_id: string;
  block_id?: string;
  /** A button's value (defaults to the button's own), or the option value / date / user picked. */
  value?: UserInput;
  message?: StoredMessage | StoredEphemeral;
  view?: StoredView;
  channel?: string;
  /** Other inputs of the view as the user left them, by action_id. */
  values?: Readonly<Record<string, UserInput>>;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export class SlackDriver {
  readonly ackTimes: number[] = [];
  readonly #options: SlackDriverOptions;
  readonly #fake: FakeSlack;
  #events = 0;

  constructor(options: SlackDriverOptions) {
    this.#options = options;
    this.#fake = options.fake;
  }

  #context(userId: string): P.PayloadContext {
    const { settings } = this.#fake;
    return {
      team: { id: this.#options.teamId ?? settings.teamId, domain: settings.teamDomain },
      user: { id: userId, name: this.#fake.person(userId)?.name ?? userId.toLowerCase() },
      apiAppId: settings.appId,
      token: 'fake-verification-token',
    };
  }

  #channel(channelId: string): { id: string; name: string } {
    return { id: channelId, name: this.#fake.channel(channelId)?.name ?? channelId.toLowerCase() };
  }

  /** Sends a raw body (form-encoded unless `contentType` says otherwise), signed unless told not to. */
  async send(
    rawBody: string,
    options: SendOptions = {},
    contentType = 'application/x-www-form-urlencoded',
  ): Promise<DriverResponse> {
    const { transport } = this.#options;
    if (transport) {
      const started = performance.now();
      const answered = await transport(rawBody, contentType);
      const ackMs = performance.now() - started;
      this.ackTimes.push(ackMs);
      return { ...answered, ackMs };
    }
    const signature = options.unsigned
      ? {}
      : signSlackRequest(options.signingSecret ?? this.#options.signingSecret, rawBody, options.timestampSeconds);
    const started = performance.now();
    const res = await request(this.#options.url, {
      method: 'POST',
      headers: { 'content-type': contentType, ...signature },
      body: rawBody,
    });
    const text = await res.body.text();
    const ackMs = performance.now() - started;
    this.ackTimes.push(ackMs);
    const type = String(res.headers['content-type'] ?? '');
    const body: unknown = type.includes('application/json') && text.length > 0 ? JSON.parse(text) : text;
    return { status: res.statusCode, body, ackMs };
  }

  /** Delivers an Events API event (JSON), e.g. `{ type: 'app_home_opened', user, tab: 'home' }`. */
  async event(userId: string, event: JsonObject, options?: SendOptions) {
    this.#events += 1;
    const eventTime = Math.floor(Date.now() / 1000);
    const payload = P.eventCallbackPayload(this.#context(userId), {
      event: { event_ts: (Date.now() / 1000).toFixed(6), ...event },
      eventId: `Ev0FAKE${String(this.#events).padStart(6, '0')}`,
      eventTime,
      botUserId: this.#fake.settings.botUserId,
    });
    return this.send(JSON.stringify(payload), options, 'application/json');
  }

  /** The user opens the app's Home tab. */
  openHome(userId: string, options?: SendOptions) {
    const home = this.#fake.home(userId);
    const event = { type: 'app_home_opened', user: userId, channel: `D${userId.slice(1)}`, tab: 'home' };
    return this.event(userId, home ? { ...event, view: home } : event, options);
  }

  /** `/command text` typed by `userId` in a channel; a message in the ack is shown like Slack does. */
  async command(userId: string, command: string, text: string, channelId?: string, options?: SendOptions) {
    const channel = this.#channel(channelId ?? this.#options.defaultChannelId ?? 'C0GENERAL');
    const responseUrl = this.#fake.issueResponseUrl({ channel: channel.id, user: userId });
    const triggerId = this.#fake.issueTriggerId(userId);
    const fields = P.slashCommandFields(this.#context(userId), { command, text, channel, responseUrl, triggerId });
    const response = await this.send(P.formBody(fields), options);
    const ack = typeof response.body === 'string' ? { text: response.body } : response.body;
    if (response.status === 200 && isObject(ack) && (ack.text || ack.blocks)) {
      this.#fake.applyAckMessage({ channel: channel.id, user: userId }, ack);
    }
    return response;
  }

  /** A click on a button (or a pick in a select) in a message, a modal or the App Home. */
  async click(userId: string, input: ClickInput, options?: SendOptions) {
    const blocks = input.view?.blocks ?? input.message?.blocks ?? [];
    const found = findElement(blocks, input.action_id, input.block_id);
    if (!found && input.block_id === undefined) {
      throw new Error(`no element with action_id "${input.action_id}" in the ${input.view ? 'view' : 'message'}`);
    }
    const element = found?.element ?? { type: 'button', action_id: input.action_id };
    const blockId = found?.blockId ?? input.block_id ?? '';
    const action = actionFor(element, blockId, input.value, (Date.now() / 1000).toFixed(6));
    const triggerId = this.#fake.issueTriggerId(userId);
    const payload = P.blockActionsPayload(this.#context(userId), {
      triggerId,
      action,
      source: this.#source(userId, input),
    });
    return this.send(P.interactionBody(payload), options);
  }

  #source(userId: string, input: ClickInput): P.ActionSource {
    if (input.view) {
      const values = viewStateValues(input.view.blocks, input.values ?? {});
      return { kind: 'view', view: { ...input.view, state: { values } } };
    }
    const { message } = input;
    if (!message) throw new Error('click needs the message or the view the element is in');
    const channel = this.#channel(input.channel ?? message.channel);
    const responseUrl = this.#fake.issueResponseUrl({
      channel: channel.id,
      user: userId,
      messageTs: message.ts,
      ephemeral: P.isEphemeral(message),
      ...(message.thread_ts === undefined ? {} : { threadTs: message.thread_ts }),
    });
    return { kind: 'message', channel, message, responseUrl };
  }

  /** Submits a modal with the user's inputs (by action_id); the ack's response_action is applied. */
  async submitView(
    userId: string,
    view: StoredView,
    values: Readonly<Record<string, UserInput>>,
    options?: SendOptions,
  ) {
    const withState = { ...view, state: { values: viewStateValues(view.blocks, values) } };
    const triggerId = this.#fake.issueTriggerId(userId);
    const payload = P.viewSubmissionPayload(this.#context(userId), { triggerId, view: withState });
    const response = await this.send(P.interactionBody(payload), options);
    if (response.status === 200) this.#fake.applyViewSubmissionAck(userId, view.id, response.body);
    return response;
  }

  /** The user dismisses a modal (Slack sends this only with `notify_on_close`). */
  async closeView(userId: string, view: StoredView, options: SendOptions & { isCleared?: boolean } = {}) {
    const payload = P.viewClosedPayload(this.#context(userId), { view, isCleared: options.isCleared ?? false });
    const response = await this.send(P.interactionBody(payload), options);
    this.#fake.closeView(userId, view.id);
    return response;
  }

  /** An external select asks for options matching what the user typed. */
  async suggest(
    userId: string,
    view: StoredView,
    actionId: string,
    blockId: string,
    value: string,
    options?: SendOptions,
  ) {
    const payload = P.blockSuggestionPayload(this.#context(userId), { view, actionId, blockId, value });
    return this.send(P.interactionBody(payload), options);
  }
}
