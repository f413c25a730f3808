/**
 * Reading a JSON body and writing answers, with the limits of issue 21: 1 MB (413), a slow body
 * cut off (408), only application/json (415), and nesting refused before JSON.parse so a body
 * nested 10,000 deep costs a scan, never a stack overflow.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Problem, type ProblemAnswer, problem } from './problem.js';

export interface BodyLimits {
  maxBytes: number;
  /** The whole body must arrive within this (a slowloris sends a byte a minute). */
  timeoutMs: number;
  maxDepth: number;
}

export const BODY_LIMITS: BodyLimits = { maxBytes: 1_048_576, timeoutMs: 10_000, maxDepth: 20 };

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

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

export type BodyResult = { ok: true; value: unknown } | { ok: false; answer: ProblemAnswer };

export async function readJsonBody(req: IncomingMessage, limits: BodyLimits = BODY_LIMITS): Promise<BodyResult> {
  const type = req.headers['content-type'] ?? '';
  if (!JSON_TYPE.test(type.trim()))
    return fail(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limits.maxBytes) return tooLarge(req, limits);
  const text = await collect(req, limits);
  if (text === 'too_large') return tooLarge(req, limits);
  if (text === 'timeout')
    return fail(408, 'body_timeout', `The body did not arrive within ${limits.timeoutMs / 1000} s; send it again.`);
  if (nestingDepth(text, limits.maxDepth) > limits.maxDepth)
    return fail(400, 'too_deep', `The JSON is nested more than ${limits.maxDepth} levels deep; send a flat object.`);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return fail(400, 'malformed_json', 'The body is not valid JSON; send one JSON object.');
  }
}

const fail = (status: number, code: Problem['code'], detail: string): BodyResult => ({
  ok: false,
  answer: problem(status, code, detail),
});

function tooLarge(req: IncomingMessage, limits: BodyLimits): BodyResult {
  req.resume(); // drain whatever else comes, without keeping it
  return fail(413, 'too_large', `The body is over ${limits.maxBytes / 1_048_576} MB; send less per request.`);
}

function collect(req: IncomingMessage, limits: BodyLimits): Promise<string | 'too_large' | 'timeout'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (v: string | 'too_large' | 'timeout') => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(v);
    };
    const timer = setTimeout(() => done('timeout'), limits.timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) done('too_large');
      else chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks).toString('utf8'));
    const onError = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  type = 'application/json',
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': `${type}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

export function sendProblem(res: ServerResponse, answer: ProblemAnswer, close = false): void {
  sendJson(
    res,
    answer.problem.status,
    answer.problem,
    { ...answer.headers, ...(close ? { Connection: 'close' } : {}) },
    'application/problem+json',
  );
}
