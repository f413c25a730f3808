/**
 * Slack's Socket Mode, played on loopback: `apps.connections.open`
 * (called with the app-level `xapp-` token) answers a `ws://127.0.0.1` URL; a connection gets
 * Slack's `hello`; every delivery is an envelope with an `envelope_id` that the app acknowledges
 * (with an optional response payload); `refresh()` sends Slack's `disconnect` message and `drop()`
 * cuts the sockets, after which the app reconnects through `apps.connections.open` again.
 * An envelope sent while no connection is open waits for the next one (a person clicking once the
 * app is back); an unacknowledged Events API envelope is sent again after a reconnect, as Slack does.
 * Reference: https://api.slack.com/apis/socket-mode (the message shapes below follow it).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { JsonObject } from './types.js';
import { type ApiResult, fail } from './web-api-env.js';

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

interface Waiting {
  envelope: JsonObject;
  resolve(payload: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

const LINK_PATH = '/socket-mode/link';
/** How long an envelope waits for the app's acknowledgement (Slack gives up after a few seconds too). */
const ACK_TIMEOUT_MS = 10_000;
/** Slack pings its clients; the client reconnects when pings stop (serverPingTimeout, 30 s). */
const PING_EVERY_MS = 5_000;

export class FakeSocketMode {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #sockets = new Set<WebSocket>();
  readonly #tickets = new Set<string>();
  readonly #unacked = new Map<string, Waiting>();
  readonly #queued: Waiting[] = [];
  readonly #ping: NodeJS.Timeout;
  #baseUrl = '';
  /** How many connections were opened (a reconnect adds one). */
  connectionsOpened = 0;

  constructor(readonly appToken: string) {
    this.#wss.on('connection', (socket) => this.#accept(socket));
    this.#ping = setInterval(() => {
      for (const s of this.#sockets) s.ping();
    }, PING_EVERY_MS);
    this.#ping.unref();
  }

  /** Serves the socket URL on the fake's own HTTP server. */
  attach(server: Server, baseUrl: string): void {
    this.#baseUrl = baseUrl.replace(/^http/, 'ws');
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const ticket = url.searchParams.get('ticket') ?? '';
      if (url.pathname !== LINK_PATH || !this.#tickets.delete(ticket)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#wss.emit('connection', ws, req));
    });
  }

  /** `apps.connections.open`: a one-use URL for one WebSocket connection. */
  open(): ApiResult {
    if (!this.#baseUrl) return fail('internal_error');
    const ticket = randomUUID();
    this.#tickets.add(ticket);
    return { ok: true, url: `${this.#baseUrl}${LINK_PATH}?ticket=${ticket}` };
  }

  get connected(): number {
    return this.#sockets.size;
  }

  /**
   * Sends an envelope and resolves with the app's acknowledgement payload (undefined for a bare
   * ack). With no connection open, it waits for the next one.
   */
  deliver(type: EnvelopeType, payload: JsonObject): Promise<unknown> {
    const envelope: JsonObject = {
      envelope_id: randomUUID(),
      type,
      payload,
      accepts_response_payload: type !== 'events_api',
      ...(type === 'events_api' ? { retry_attempt: 0, retry_reason: '' } : {}),
    };
    return new Promise((resolve, reject) => {
      const waiting: Waiting = {
        envelope,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#unacked.delete(String(envelope.envelope_id));
          reject(new Error(`no acknowledgement of ${type} envelope within ${ACK_TIMEOUT_MS} ms`));
        }, ACK_TIMEOUT_MS),
      };
      this.#send(waiting);
    });
  }

  /** Slack's "refresh_requested": the app is asked to reconnect; the socket closes after. */
  refresh(): void {
    for (const s of this.#sockets) {
      s.send(JSON.stringify({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'fake' } }));
    }
  }

  /** The network drops every socket without a goodbye. */
  drop(): void {
    for (const s of this.#sockets) s.terminate();
  }

  async close(): Promise<void> {
    clearInterval(this.#ping);
    for (const w of [...this.#unacked.values(), ...this.#queued]) {
      clearTimeout(w.timer);
      w.reject(new Error('fake Socket Mode closed'));
    }
    this.#unacked.clear();
    this.#queued.length = 0;
    for (const s of this.#sockets) s.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #send(waiting: Waiting): void {
    const socket = [...this.#sockets].find((s) => s.readyState === s.OPEN);
    if (!socket) {
      this.#queued.push(waiting);
      return;
    }
    this.#unacked.set(String(waiting.envelope.envelope_id), waiting);
    socket.send(JSON.stringify(waiting.envelope));
  }

  #accept(socket: WebSocket): void {
    this.#sockets.add(socket);
    this.connectionsOpened += 1;
    socket.on('message', (data) => this.#acked(String(data)));
    socket.on('close', () => {
      this.#sockets.delete(socket);
      // Slack retries an unacknowledged Events API envelope on the next connection; a command or
      // an interaction that was not acknowledged has failed for the person, who sees an error.
      for (const [id, w] of this.#unacked) {
        if (w.envelope.type === 'events_api') this.#queued.push(w);
        else {
          clearTimeout(w.timer);
          w.reject(new Error(`the connection closed before the app acknowledged ${String(w.envelope.type)}`));
        }
        this.#unacked.delete(id);
      }
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.#sockets.size,
        debug_info: { host: 'fake', approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0FAKE' },
      }),
    );
    const queued = this.#queued.splice(0);
    for (const w of queued) this.#send(w);
  }

  #acked(text: string): void {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    const id = typeof message.envelope_id === 'string' ? message.envelope_id : '';
    const waiting = this.#unacked.get(id);
    if (!waiting) return;
    this.#unacked.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(message.payload);
  }
}
