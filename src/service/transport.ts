/**
 * One bounded HTTP exchange with the service:
 * - whether the request left is observed, not guessed: undici starts a request (onRequestStart)
 *   just before it writes the first byte on a connected socket, so a failure before that point
 *   is "never sent" and any failure after it may have reached the service, whatever its code;
 * - one total deadline covers connecting, sending, the headers and the whole body (undici's own
 *   headers/body time-outs are idle timers that a trickling answer keeps resetting);
 * - the body is read chunk by chunk and abandoned past a size cap, never buffered whole.
 */
import { type Dispatcher, request } from 'undici';
import type { TransportFailure } from './errors.js';

export interface Exchange {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | null;
  dispatcher: Dispatcher;
  /** From the start of the call to the last byte of the answer. */
  deadlineMs: number;
  /** Longest silence while waiting for the headers or the next body bytes. */
  idleMs: number;
  maxBytes: number;
}

export interface Answer {
  status: number;
  text: string;
}

/** A failed exchange: `sent` says whether any byte of the request may have been written. */
export class ExchangeFailure extends Error {
  override readonly name = 'ExchangeFailure';
  constructor(
    readonly sent: boolean,
    readonly how: TransportFailure,
    cause: unknown,
  ) {
    super(how === 'other' ? 'the exchange with the service failed' : `the exchange with the service ended: ${how}`, {
      cause,
    });
  }
}

/**
 * Who to tell when undici begins writing a request, keyed by the request's abort signal (one per
 * exchange): the observing dispatcher is composed once per dispatcher, not once per call.
 */
const onStartOf = new WeakMap<AbortSignal, () => void>();

/** Tells the exchange when undici begins writing the request (on any dispatcher, injected ones too). */
const observeStart: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  // undici's request() hands its whole options, signal included, to dispatch().
  const { signal } = opts as { signal?: unknown };
  const onStart = signal instanceof AbortSignal ? onStartOf.get(signal) : undefined;
  if (!onStart) return dispatch(opts, handler);
  return dispatch(opts, {
    onRequestStart(controller, context) {
      onStart();
      handler.onRequestStart?.(controller, context);
    },
    onRequestUpgrade: (controller, status, headers, socket) =>
      handler.onRequestUpgrade?.(controller, status, headers, socket),
    onResponseStart: (controller, status, headers, message) =>
      handler.onResponseStart?.(controller, status, headers, message),
    onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
    onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, err) => handler.onResponseError?.(controller, err),
  });
};

const observing = new WeakMap<Dispatcher, Dispatcher>();

/** `dispatcher` with the start observer, built on first use and kept while the dispatcher lives. */
function observed(dispatcher: Dispatcher): Dispatcher {
  let composed = observing.get(dispatcher);
  if (!composed) {
    composed = dispatcher.compose(observeStart);
    observing.set(dispatcher, composed);
  }
  return composed;
}

export async function exchange(x: Exchange): Promise<Answer> {
  let sent = false;
  let how: TransportFailure = 'other';
  const abort = new AbortController();
  const stop = (why: TransportFailure, reason: string) => {
    how = why;
    abort.abort(new Error(reason));
  };
  onStartOf.set(abort.signal, () => {
    sent = true;
  });
  const timer = setTimeout(() => stop('deadline', `no complete answer within ${x.deadlineMs} ms`), x.deadlineMs);
  try {
    const res = await request(x.url, {
      method: x.method,
      headers: x.headers,
      body: x.body,
      signal: abort.signal,
      dispatcher: observed(x.dispatcher),
      headersTimeout: x.idleMs,
      bodyTimeout: x.idleMs,
    });
    const tooLarge = () => {
      stop('too-large', `answer larger than ${x.maxBytes} bytes`);
      return abort.signal.reason;
    };
    if (Number(res.headers['content-length'] ?? 0) > x.maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > x.maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    throw new ExchangeFailure(sent, how, err);
  } finally {
    clearTimeout(timer);
  }
}
