/** Shapes shared by the fake Slack Web API: what it is configured with and what it records. */

export type JsonObject = Record<string, unknown>;

/** A person known to `users.info`. */
export interface FakePerson {
  id: string;
  name: string;
  real_name: string;
  /** IANA zone such as `Africa/Lagos`. */
  tz: string;
  is_bot?: boolean;
  deleted?: boolean;
}

/** A conversation known to `conversations.info`; posting to a known one the bot is not in fails. */
export interface FakeChannel {
  id: string;
  name: string;
  is_private?: boolean;
  /** Defaults to true. */
  is_member?: boolean;
  /** Shared with another organisation (Slack Connect); defaults to false. */
  is_ext_shared?: boolean;
}

export interface FakeSlackOptions {
  /** The only token the fake accepts (`Authorization: Bearer …`). */
  botToken: string;
  /** 0 (default) picks a free port. */
  port?: number;
  teamId?: string;
  teamDomain?: string;
  botUserId?: string;
  botId?: string;
  appId?: string;
  people?: FakePerson[];
  /** User group id (S…) → member user ids. */
  usergroups?: Record<string, string[]>;
  channels?: FakeChannel[];
  /** How long an issued trigger id stays usable; Slack allows 3 s. */
  triggerTtlMs?: number;
  clock?: () => number;
  /** Scopes the token was granted, sent in x-oauth-scopes as Slack does; default: manifest.yml's. */
  scopes?: string[];
  /** The app-level token (`xapp-…`): with it, the fake also plays Socket Mode (socket-mode.ts). */
  appToken?: string;
}

export interface FakeSettings {
  botToken: string;
  teamId: string;
  teamDomain: string;
  botUserId: string;
  botId: string;
  appId: string;
  people: FakePerson[];
  usergroups: Record<string, string[]>;
  channels: FakeChannel[];
  triggerTtlMs: number;
  clock: () => number;
  scopes: string[];
}

export interface RecordedCall {
  /** Web API method name, or `response_url` for POSTs to an issued response URL. */
  method: string;
  /** Parsed arguments; JSON-string fields (`blocks`, `view`, …) are decoded. */
  args: JsonObject;
  /** Epoch milliseconds from the fake's clock. */
  at: number;
  /** HTTP status the fake answered with (429 when rate limited). */
  status: number;
  response: JsonObject;
}

export interface StoredMessage {
  ts: string;
  channel: string;
  /** The bot user id: every message in the store was posted by the app. */
  user: string;
  bot_id: string;
  text: string;
  blocks: unknown[];
  thread_ts?: string;
  edited?: { user: string; ts: string };
  /** Message metadata as posted (`event_type`, `event_payload`); history shows it on request. */
  metadata?: JsonObject;
  /** Files shared with the message (files.completeUploadExternal), as Slack shows them. */
  files?: JsonObject[];
}

export interface StoredEphemeral extends StoredMessage {
  /** Who sees it. */
  recipient: string;
}

/** A view as Slack returns it (the `view` of views.open and of interaction payloads). */
export interface StoredView {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  callback_id: string;
  private_metadata: string;
  external_id: string;
  title: JsonObject | null;
  submit: JsonObject | null;
  close: JsonObject | null;
  blocks: JsonObject[];
  state: { values: Record<string, Record<string, JsonObject>> };
  hash: string;
  clear_on_close: boolean;
  notify_on_close: boolean;
  root_view_id: string | null;
  previous_view_id: string | null;
  app_id: string;
  app_installed_team_id: string;
  bot_id: string;
}

/** Where a response_url posts to; `messageTs` names the message the interaction came from. */
export interface ResponseUrlContext {
  channel: string;
  user: string;
  messageTs?: string;
  /** True when the originating message is an ephemeral one. */
  ephemeral?: boolean;
  threadTs?: string;
}
