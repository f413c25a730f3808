/**
 * A fake Slack Web API on a real local HTTP server. Point Bolt's `clientOptions.slackApiUrl` at
 * `apiUrl`; the fake records every call, keeps the messages and views the app produced, checks
 * Block Kit limits and can be told to rate-limit.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BlockKitSurface, checkBlockKitLimits } from './block-kit-limits.js';
import { chatMethods } from './chat-methods.js';
import { directoryMethods } from './directory-methods.js';
import { FileStore, fileJson, fileMethods, handleFileRoute, newFile, type StoredFile } from './files.js';
import { historyMethods } from './history-methods.js';
import { IdSource } from './ids.js';
import { CallRecorder } from './recorder.js';
import { applyMessageResponse, ResponseUrls } from './response-urls.js';
import { createRequestHandler, RateLimits } from './server.js';
import { settingsFrom } from './settings.js';
import { FakeSocketMode } from './socket-mode.js';
import { SlackStore } from './store.js';
import { TriggerRegistry } from './triggers.js';
import type * as T from './types.js';
import { applyViewSubmissionAck } from './view-acks.js';
import { viewMethods } from './view-methods.js';
import { type ApiResult, fail, type WebApiEnv } from './web-api-env.js';

const isObject = (v: unknown): v is T.JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export class FakeSlack {
  readonly settings: Readonly<T.FakeSettings>;
  readonly #listeners = new Set<() => void>();
  readonly #recorder = new CallRecorder(() => this.#changed());
  readonly #store = new SlackStore();
  readonly #responseUrls = new ResponseUrls();
  readonly #rateLimits = new RateLimits();
  readonly #files = new FileStore();
  #downloadDelayMs = 0;
  /** Block types answered with invalid_blocks (a workspace without chart blocks). */
  readonly #refusedBlocks = new Set<string>();
  readonly #ids: IdSource;
  readonly #triggers: TriggerRegistry;
  readonly #env: WebApiEnv;
  readonly #server: Server;
  /** Socket Mode on loopback, when the fake was given an app-level token. */
  readonly socketMode: FakeSocketMode | undefined;

  private constructor(settings: T.FakeSettings, appToken: string | undefined) {
    this.settings = settings;
    this.#ids = new IdSource(settings.clock);
    this.#triggers = new TriggerRegistry(this.#ids, settings.clock, settings.triggerTtlMs);
    const recorder = this.#recorder;
    const refusedBlocks = this.#refusedBlocks;
    this.#env = {
      settings,
      store: this.#store,
      ids: this.#ids,
      triggers: this.#triggers,
      checkLimits(method: string, kind: BlockKitSurface, payload: unknown): ApiResult | undefined {
        const errors = checkBlockKitLimits(kind, payload, refusedBlocks);
        if (errors.length === 0) return undefined;
        const callbackId =
          isObject(payload) && typeof payload.callback_id === 'string' ? ` ${payload.callback_id}` : '';
        for (const e of errors) recorder.violations.push(`${method} (${kind}${callbackId}) ${e}`);
        return fail('invalid_blocks', { errors, response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) } });
      },
    };
    const files = fileMethods(this.#files, () => this.baseUrl);
    const methods = { ...chatMethods, ...viewMethods, ...directoryMethods, ...historyMethods, ...files };
    this.socketMode = appToken ? new FakeSocketMode(appToken) : undefined;
    const deps = {
      env: this.#env,
      recorder,
      responseUrls: this.#responseUrls,
      rateLimits: this.#rateLimits,
      methods,
      ...(this.socketMode ? { socketMode: this.socketMode } : {}),
      // Upload URLs and private file URLs, outside /api/.
      routes: (req: IncomingMessage, res: ServerResponse) =>
        handleFileRoute(
          req,
          res,
          this.#files,
          settings.botToken,
          (method, status, args) =>
            recorder.record({ method, args, at: settings.clock(), status, response: { ok: status === 200 } }),
          this.#downloadDelayMs,
        ),
    };
    this.#server = createServer(createRequestHandler(deps));
  }

  static async start(options: T.FakeSlackOptions): Promise<FakeSlack> {
    const fake = new FakeSlack(settingsFrom(options), options.appToken);
    await new Promise<void>((resolve, reject) => {
      fake.#server.once('error', reject);
      fake.#server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    fake.socketMode?.attach(fake.#server, fake.baseUrl);
    return fake;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Pass as `slackApiUrl` (Bolt: `clientOptions.slackApiUrl`). */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  get calls(): T.RecordedCall[] {
    return this.#recorder.calls;
  }

  get violations(): string[] {
    return this.#recorder.violations;
  }

  get problems(): string[] {
    return this.#recorder.problems;
  }

  callsTo(method: string): T.RecordedCall[] {
    return this.#recorder.callsTo(method);
  }

  waitFor<R>(
    predicate: (calls: readonly T.RecordedCall[]) => R | undefined | null | false,
    timeoutMs = 5000,
  ): Promise<R> {
    return this.#recorder.waitFor(predicate, timeoutMs);
  }

  /** The first successful call to `method` whose arguments satisfy `match`. */
  waitForCall(method: string, match: (args: T.JsonObject) => boolean = () => true, timeoutMs = 5000) {
    return this.waitFor(
      (calls) => calls.find((c) => c.method === method && c.response.ok === true && match(c.args)),
      timeoutMs,
    );
  }

  reset(): void {
    this.#recorder.reset();
    this.#store.reset();
    this.#triggers.reset();
    this.#responseUrls.reset();
    this.#rateLimits.reset();
    this.#files.reset();
    this.#downloadDelayMs = 0;
    this.#refusedBlocks.clear();
    this.#changed();
  }

  /**
   * Calls `listener` after anything the workspace shows may have changed (a Web API call, a
   * response_url post, an applied ack, a closed view); returns a function that unsubscribes.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (err) {
        // A broken listener must not break the fake's answer to the app.
        this.#recorder.problems.push(`fake Slack change listener failed: ${String(err)}`);
      }
    }
  }

  messages(channel: string): T.StoredMessage[] {
    return this.#store.messages(channel);
  }

  thread(channel: string, ts: string): T.StoredMessage[] {
    return this.#store.thread(channel, ts);
  }

  message(channel: string, ts: string): T.StoredMessage | undefined {
    const message = this.#store.findMessage(channel, ts);
    return message && structuredClone(message);
  }

  ephemerals(user: string): T.StoredEphemeral[] {
    return this.#store.ephemerals(user);
  }

  views(user: string): T.StoredView[] {
    return this.#store.views(user);
  }

  home(user: string): T.StoredView | undefined {
    return this.#store.home(user);
  }

  person(userId: string): T.FakePerson | undefined {
    return this.settings.people.find((p) => p.id === userId);
  }

  channel(channelId: string): T.FakeChannel | undefined {
    return this.settings.channels.find((c) => c.id === channelId);
  }

  /** A trigger id as Slack sends with an interaction: usable once, for `triggerTtlMs`. */
  issueTriggerId(userId?: string): string {
    return this.#triggers.issue(userId);
  }

  issueResponseUrl(context: T.ResponseUrlContext): string {
    const id = this.#ids.responseUrlId();
    this.#responseUrls.issue(id, context, this.settings.clock());
    return `${this.baseUrl}/response/${id}`;
  }

  /** Shows a message sent in an acknowledgement (a slash command's ack body) as Slack would. */
  applyAckMessage(context: T.ResponseUrlContext, body: T.JsonObject): ApiResult {
    const result = applyMessageResponse({ context }, body, this.#env, 'ack');
    this.#changed();
    return result;
  }

  /** Applies a view_submission acknowledgement (`response_action` or none) to the user's views. */
  applyViewSubmissionAck(userId: string, viewId: string, body: unknown): void {
    const problem = applyViewSubmissionAck(this.#env, userId, viewId, body);
    if (problem !== undefined) this.problems.push(problem);
    this.#changed();
  }

  /** The user closed a modal (Cancel or ×): it and the views above it go away. */
  closeView(userId: string, viewId: string): void {
    this.#store.closeView(userId, viewId);
    this.#changed();
  }

  /**
   * A person picks a file in a `file_input`: Slack stores it and the view_submission
   * carries it. Returns the element's state value to pass to `driver.submitView`.
   */
  pickFile(userId: string, name: string, bytes: Uint8Array): T.JsonObject {
    const file = newFile(this.#files, userId, name, Buffer.from(bytes), this.settings.clock());
    this.#changed();
    return { type: 'file_input', files: [fileJson(file, this.#env, this.baseUrl)] };
  }

  /** Every file Slack holds (picked or uploaded), with its bytes. */
  files(): StoredFile[] {
    return this.#files.all().map((f) => ({ ...f, channels: [...f.channels] }));
  }

  /** Each download of a private file URL waits this long before answering (0: at once). */
  /** From now on, answer invalid_blocks to any message or view holding these block types. */
  refuseBlockTypes(...types: string[]): void {
    for (const t of types) this.#refusedBlocks.add(t);
  }

  delayFileDownloads(ms: number): void {
    this.#downloadDelayMs = ms;
  }

  /** The next `count` calls to `method` answer HTTP 429 with `Retry-After` and take no effect. */
  rateLimitNext(method: string, count: number, retryAfterSeconds = 1): void {
    this.#rateLimits.limitNext(method, count, retryAfterSeconds);
  }

  async close(): Promise<void> {
    await this.socketMode?.close();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }
}

export const startFakeSlack = (options: T.FakeSlackOptions): Promise<FakeSlack> => FakeSlack.start(options);
