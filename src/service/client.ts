/**
 * Typed client for all ten operations of the service interface (spec section 4). Every request
 * is validated before it is sent and every response is parsed; failures are ServiceError.
 * Reads retry transient failures; calls that move money or create things never retry.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { maskServiceText } from '../domain/personal-data.js';
import { InputError } from '../errors.js';
import type { Logger } from '../log.js';
import { isIdempotent } from './classify.js';
import { type Operation, ServiceError, transportError } from './errors.js';
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
  /** Largest answer read, in bytes; a larger one is abandoned unread (issue 9 item 3). */
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

export interface QueryParams {
  wallet: string;
  balances: string;
  identity: string;
  rate: string;
}

const DEFAULT_PARAMS: QueryParams = {
  wallet: 'wallet_id',
  balances: 'wallet_id',
  identity: 'identity_id',
  rate: 'currency',
};

interface Call<Req, Res> {
  operation: Operation;
  method: 'GET' | 'POST';
  path: string;
  auth: 'key' | 'bearer';
  body?: Req;
  query?: Record<string, string>;
  requestSchema?: z.ZodType<Req>;
  responseSchema: z.ZodType<Res>;
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
    this.params = { ...DEFAULT_PARAMS, ...options.params };
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

  // ---- spec 4.1 (Bearer auth)
  createUser(body: s.CreateUserRequest) {
    return this.call({
      operation: 'createUser',
      method: 'POST',
      path: '/user',
      auth: 'bearer',
      body,
      requestSchema: s.createUserRequest,
      responseSchema: s.userCreated,
    });
  }

  // ---- spec 4.2
  transfer(body: s.TransferRequest) {
    return this.call({
      operation: 'transfer',
      method: 'POST',
      path: '/transfer',
      auth: 'key',
      body,
      requestSchema: s.transferRequest,
      responseSchema: s.transferResult,
    });
  }

  // ---- spec 4.3
  createBeneficiary(body: s.CreateBeneficiaryRequest) {
    return this.call({
      operation: 'createBeneficiary',
      method: 'POST',
      path: '/beneficiary',
      auth: 'key',
      body,
      requestSchema: s.createBeneficiaryRequest,
      responseSchema: s.idResult,
    });
  }

  // ---- spec 4.4
  offramp(body: s.OfframpRequest) {
    return this.call({
      operation: 'offramp',
      method: 'POST',
      path: '/offramp',
      auth: 'key',
      body,
      requestSchema: s.offrampRequest,
      responseSchema: s.offrampResult,
    });
  }

  // ---- spec 4.5
  createIdentity(body: s.CreateIdentityRequest) {
    return this.call({
      operation: 'createIdentity',
      method: 'POST',
      path: '/identity',
      auth: 'key',
      body,
      requestSchema: s.createIdentityRequest,
      responseSchema: s.identityCreated,
    });
  }

  // ---- spec 4.6
  async getIdentity(identityId: string) {
    return this.call({
      operation: 'getIdentity',
      method: 'GET',
      path: '/identity',
      auth: 'key',
      query: { [this.params.identity]: requireId(identityId, 'identity_id') },
      responseSchema: s.identity,
    });
  }

  // ---- spec 4.7
  lookupAccount(body: s.LookupRequest) {
    return this.call({
      operation: 'lookupAccount',
      method: 'POST',
      path: '/lookup',
      auth: 'key',
      body,
      requestSchema: s.lookupRequest,
      responseSchema: s.accountLookup,
    });
  }

  // ---- spec 4.8
  async getWallet(walletId: string) {
    return this.call({
      operation: 'getWallet',
      method: 'GET',
      path: '/wallet',
      auth: 'key',
      query: { [this.params.wallet]: requireId(walletId, 'wallet_id') },
      responseSchema: s.wallet,
    });
  }

  // ---- spec 4.9
  async getBalances(walletId: string) {
    return this.call({
      operation: 'getBalances',
      method: 'GET',
      path: '/balances',
      auth: 'key',
      query: { [this.params.balances]: requireId(walletId, 'wallet_id') },
      responseSchema: s.balanceEntry.array(),
    });
  }

  // ---- spec 4.10
  getOnrampRate(currency: s.Currency) {
    return this.call({
      operation: 'getOnrampRate',
      method: 'GET',
      path: '/rate/onramp',
      auth: 'key',
      query: { [this.params.rate]: s.currencyWireForm(currency) },
      responseSchema: s.rate,
    });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async call<Req, Res>(call: Call<Req, Res>): Promise<Res> {
    if (call.requestSchema) {
      const checked = call.requestSchema.safeParse(call.body);
      if (!checked.success) {
        const { field, message } = s.describeZodError(checked.error);
        throw new InputError(`${call.operation}: ${message}`, field);
      }
    }
    // Only reads may be retried: a repeated write could act twice.
    const attempts = isIdempotent(call.operation) ? 1 + (this.options.readRetries ?? 2) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(call);
      } catch (err) {
        if (attempt >= attempts || !isTransient(err)) throw err;
        const base = (this.options.retryBaseDelayMs ?? 150) * 2 ** (attempt - 1);
        const delay = base / 2 + Math.random() * base; // jitter spreads retries of many callers
        this.options.log?.warn(
          { operation: call.operation, attempt, delay: Math.round(delay) },
          'service read failed, retrying',
        );
        await sleep(delay);
      }
    }
  }

  private async once<Req, Res>(call: Call<Req, Res>): Promise<Res> {
    const observe = this.options.onCall;
    if (!observe) return this.send(call);
    const started = performance.now();
    try {
      const result = await this.send(call);
      observe(call.operation, undefined, (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      observe(call.operation, err, (performance.now() - started) / 1000);
      throw err;
    }
  }

  private async send<Req, Res>(call: Call<Req, Res>): Promise<Res> {
    const url = new URL(this.baseUrl + call.path);
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.auth === 'key') headers['x-service-key'] = this.options.apiKey;
    else if (this.options.bearerToken) headers.authorization = `Bearer ${this.options.bearerToken}`;
    else {
      throw new ServiceError(
        'SERVICE_REJECTED',
        `${call.operation}: SERVICE_BEARER_TOKEN is not set, so POST ${call.path} cannot be authorised`,
        { operation: call.operation, mayHaveReached: false, refused: true },
      );
    }
    const body = call.body === undefined ? null : JSON.stringify(call.body);
    if (body !== null) headers['content-type'] = 'application/json';
    const timeout = isIdempotent(call.operation)
      ? (this.options.readTimeoutMs ?? 8_000)
      : (this.options.responseTimeoutMs ?? 20_000);
    const maxBytes = this.options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    let answer: { status: number; text: string };
    try {
      answer = await exchange({
        url,
        method: call.method,
        headers,
        body,
        dispatcher: this.dispatcher,
        // One total deadline: connecting, then the whole answer (README "Configuration").
        deadlineMs: (this.options.connectTimeoutMs ?? 5_000) + timeout,
        idleMs: timeout,
        maxBytes,
      });
    } catch (err) {
      if (err instanceof ExchangeFailure) throw transportError(call.operation, err.cause, err.sent, err.how, maxBytes);
      throw transportError(call.operation, err, true);
    }
    return parseResponse(call.operation, call.responseSchema, answer.status, answer.text, this.mask);
  }
}

function requireId(value: string, field: string): string {
  if (value.trim() === '') throw new InputError(`${field}: must not be empty`, field);
  return value.trim();
}

const isTransient = (err: unknown): boolean =>
  err instanceof ServiceError && (err.code === 'SERVICE_UNAVAILABLE' || err.code === 'SERVICE_TIMEOUT');
