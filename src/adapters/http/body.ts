/**
 * The one request-body reader of the routes that read their own body (api/, web/);
 * Bolt reads Slack's with the same limit. The server has already refused a Content-Length over
 * the route's limit; this stops a chunked or lying body at the first byte past it, a slow body at
 * its time-out, and a JSON body nested too deep before JSON.parse (a body nested 10,000 deep costs
 * a scan, never a stack overflow).
 */
import type { IncomingMessage } from 'node:http';
import { InputError } from '../../errors.js';

/** A 413 for the route that read it. */
export class BodyTooLargeError extends InputError {
  constructor(readonly limit: number) {
    super(`The request body is over ${limit} bytes; send a smaller one.`, 'body');
  }
}

export interface BodyLimits {
  maxBytes: number;
  /** The whole body must arrive within this (a slowloris sends a byte a minute). */
  timeoutMs: number;
  maxDepth: number;
}

/** The raw body, up to `limit` bytes (BodyTooLargeError past it). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const body = await collect(req, limit);
  if (body === 'too_large' || body === 'timeout') throw new BodyTooLargeError(limit);
  return body;
}

export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'media_type' | 'too_large' | 'timeout' | 'too_deep' | 'malformed' };

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** A JSON body within `limits`, or why not (each caller words its own answer). */
export async function readJson(req: IncomingMessage, limits: BodyLimits): Promise<JsonBody> {
  if (!JSON_TYPE.test((req.headers['content-type'] ?? '').trim())) return { ok: false, reason: 'media_type' };
  if (Number(req.headers['content-length'] ?? '0') > limits.maxBytes) {
    req.resume(); // drain whatever else comes, without keeping it
    return { ok: false, reason: 'too_large' };
  }
  const body = await collect(req, limits.maxBytes, limits.timeoutMs);
  if (body === 'too_large' || body === 'timeout') return { ok: false, reason: body };
  const text = body.toString('utf8');
  if (nestingDepth(text, limits.maxDepth) > limits.maxDepth) return { ok: false, reason: 'too_deep' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
}

/** Deepest nesting of arrays and objects, scanning text (strings skipped); stops past `limit`. */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** Past `maxBytes` the rest is drained unkept; no time-out when `timeoutMs` is absent. */
function collect(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs?: number,
): Promise<Buffer | 'too_large' | 'timeout'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const done = (v: Buffer | 'too_large' | 'timeout') => {
      cleanup();
      if (v === 'too_large') req.resume();
      resolve(v);
    };
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => done('timeout'), timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) done('too_large');
      else chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks, size));
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
