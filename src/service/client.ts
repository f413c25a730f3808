/**
 * Typed client for all ten operations of the service interface (spec section 4), derived from
 * the one operation table (operations.ts). Every request is validated before it is sent and
 * every response is parsed; failures are ServiceError. Reads retry transient failures; calls
 * that move money or create things never retry.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import { maskServiceText } from '../domain/personal-data.js';
import { InputError } from '../errors.js';
import type { Logger } from '../log.js';
import { ServiceError, transportError } from './errors.js';
import {
  DEFAULT_QUERY_PARAMS,
  OPERATIONS,
  type Operation,
  type OperationSpec,
  type QueryParams,
  type RequestOf,
  type ResponseOf,
} from './operations.js';
import { parseResponse } from './response.js';
import * as s from './schemas.js';
import { ExchangeFailure, exchange } from './transport.js';

export interface ServiceClientOptions {
  baseUrl: string;
  apiKey: string;
  bearerToken?: string | undefined;
  connectTimeoutMs?: number;
  /** Time-out for calls that move money or create things (never retried). */
  responseTimeoutMs?: number;
  /** Time-out for reads, shorter: people wait for them, and they may be retried. */
  readTimeoutMs?: number;
  /** Largest answer read, in bytes; a larger one is abandoned unread. */
  maxResponseBytes?: number;
  /**
   * Values never to show, store or log if the service echoes them (SERVICE_API_KEY,
   * SERVICE_BEARER_TOKEN, Slack's; config.ts `secretsOf`). The client's own key and token are
   * always included.
   */
  secrets?: readonly string[];
  /** Query parameter names the spec leaves unnamed (README "Choices"). */
  params?: Partial<QueryParams>;
  /** Read retries after the first try; 0 disables. */
  readRetries?: number;
  retryBaseDelayMs?: number;
  dispatcher?: Dispatcher;
  log?: Logger;
  /** Called after every try with how it ended (metrics, /healthz); never throws into the call. */
  onCall?: CallObserver;
}

export type CallObserver = (operation: Operation, error: unknown, seconds: number) => void;

export type { QueryParams };

/** What one call carries besides its operation: a POST's body or a GET's one query value. */
interface CallInput<K extends Operation> {
  body?: RequestOf<K>;
  query?: string;
}

/** 1 MiB: the largest answer of the interface (a balance list) is a few KiB. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export class ServiceClient {
  readonly baseUrl: string;
  private readonly options: ServiceClientOptions;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly params: QueryParams;
  private readonly mask: (text: string) => string;

  constructor(options: ServiceClientOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.params = { ...DEFAULT_QUERY_PARAMS, ...options.params };
    const secrets = [options.apiKey, options.bearerToken ?? '', ...(options.secrets ?? [])];
    this.mask = (text) => maskServiceText(text, secrets);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        connect: { timeout: options.connectTimeoutMs ?? 5_000 },
        headersTimeout: options.responseTimeoutMs ?? 20_000,
        bodyTimeout: options.responseTimeoutMs ?? 20_000,
      });
  }

  // spec 4.1 … 4.10, in the spec's order; method, path, auth and schemas come from OPERATIONS.
  createUser(body: s.CreateUserRequest) {
    return this.call('createUser', { body });
  }

  transfer(body: s.TransferRequest) {
    return this.call('transfer', { body });
  }

  createBeneficiary(body: s.CreateBeneficiaryRequest) {
    return this.call('createBeneficiary', { body });
  }

  offramp(body: s.OfframpRequest) {
    return this.call('offramp', { body });
  }

  createIdentity(body: s.CreateIdentityRequest) {
    return this.call('createIdentity', { body });
  }

  async getIdentity(identityId: string) {
    return this.call('getIdentity', { query: requireId(identityId, 'identity_id') });
  }

  lookupAccount(body: s.LookupRequest) {
    return this.call('lookupAccount', { body });
  }

  async getWallet(walletId: string) {
    return this.call('getWallet', { query: requireId(walletId, 'wallet_id') });
  }

  async getBalances(walletId: string) {
    return this.call('getBalances', { query: requireId(walletId, 'wallet_id') });
  }

  getOnrampRate(currency: s.Currency) {
    return this.call('getOnrampRate', { query: s.currencyWireForm(currency) });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async call<K extends Operation>(operation: K, input: CallInput<K>): Promise<ResponseOf<K>> {
    const op: OperationSpec = OPERATIONS[operation];
    if (op.request) {
      const checked = op.request.safeParse(input.body);
      if (!checked.success) {
        const { field, message } = s.describeZodError(checked.error);
        throw new InputError(`${operation}: ${message}`, field);
      }
    }
    // Only reads may be retried: a repeated write could act twice.
    const attempts = op.idempotent ? 1 + (this.options.readRetries ?? 2) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.once(operation, op, input)) as ResponseOf<K>;
      } catch (err) {
        if (attempt >= attempts || !isTransient(err)) throw err;
        const base = (this.options.retryBaseDelayMs ?? 150) * 2 ** (attempt - 1);
        const delay = base / 2 + Math.random() * base; // jitter spreads retries of many callers
        this.options.log?.warn({ operation, attempt, delay: Math.round(delay) }, 'service read failed, retrying');
        await sleep(delay);
      }
    }
  }

  private async once(operation: Operation, op: OperationSpec, input: CallInput<Operation>): Promise<unknown> {
    const observe = this.options.onCall;
    if (!observe) return this.send(operation, op, input);
    const started = performance.now();
    try {
      const result = await this.send(operation, op, input);
      observe(operation, undefined, (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      observe(operation, err, (performance.now() - started) / 1000);
      throw err;
    }
  }

  private async send(operation: Operation, op: OperationSpec, input: CallInput<Operation>): Promise<unknown> {
    const url = new URL(this.baseUrl + op.path);
    if (op.query && input.query !== undefined) url.searchParams.set(this.params[op.query], input.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (op.auth === 'key') headers['x-service-key'] = this.options.apiKey;
    else if (this.options.bearerToken) headers.authorization = `Bearer ${this.options.bearerToken}`;
    else {
      throw new ServiceError(
        'SERVICE_REJECTED',
        `${operation}: SERVICE_BEARER_TOKEN is not set, so ${op.method} ${op.path} cannot be authorised`,
        { operation, mayHaveReached: false, refused: true },
      );
    }
    const body = input.body === undefined ? null : JSON.stringify(input.body);
    if (body !== null) headers['content-type'] = 'application/json';
    const timeout = op.idempotent ? (this.options.readTimeoutMs ?? 8_000) : (this.options.responseTimeoutMs ?? 20_000);
    const maxBytes = this.options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    let answer: { status: number; text: string };
    try {
      answer = await exchange({
        url,
        method: op.method,
        headers,
        body,
        dispatcher: this.dispatcher,
        // One total deadline: connecting, then the whole answer (README "Configuration").
        deadlineMs: (this.options.connectTimeoutMs ?? 5_000) + timeout,
        idleMs: timeout,
        maxBytes,
      });
    } catch (err) {
      if (err instanceof ExchangeFailure) throw transportError(operation, err.cause, err.sent, err.how, maxBytes);
      throw transportError(operation, err, true);
    }
    return parseResponse(operation, op.response, answer.status, answer.text, this.mask);
  }
}

function requireId(value: string, field: string): string {
  if (value.trim() === '') throw new InputError(`${field}: must not be empty`, field);
  return value.trim();
}

const isTransient = (err: unknown): boolean =>
  err instanceof ServiceError && (err.code === 'SERVICE_UNAVAILABLE' || err.code === 'SERVICE_TIMEOUT');
