/**
 * A JSON body read by the one reader (http/body.ts) with the API's limits — 1 MB (413), a
 * slow body cut off (408), only application/json (415), nesting refused before JSON.parse — each
 * refusal as a problem; and writing answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BodyLimits, readJson } from '../http/body.js';
import { securityHeaders } from '../http/headers.js';
import { type Problem, type ProblemAnswer, problem } from './problem.js';

export { type BodyLimits, nestingDepth } from '../http/body.js';

export const BODY_LIMITS: BodyLimits = { maxBytes: 1_048_576, timeoutMs: 10_000, maxDepth: 20 };

export type BodyResult = { ok: true; value: unknown } | { ok: false; answer: ProblemAnswer };

export async function readJsonBody(req: IncomingMessage, limits: BodyLimits = BODY_LIMITS): Promise<BodyResult> {
  const body = await readJson(req, limits);
  if (body.ok) return body;
  switch (body.reason) {
    case 'media_type':
      return fail(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    case 'too_large':
      return fail(413, 'too_large', `The body is over ${limits.maxBytes / 1_048_576} MB; send less per request.`);
    case 'timeout':
      return fail(408, 'body_timeout', `The body did not arrive within ${limits.timeoutMs / 1000} s; send it again.`);
    case 'too_deep':
      return fail(400, 'too_deep', `The JSON is nested more than ${limits.maxDepth} levels deep; send a flat object.`);
    case 'malformed':
      return fail(400, 'malformed_json', 'The body is not valid JSON; send one JSON object.');
  }
}

const fail = (status: number, code: Problem['code'], detail: string): BodyResult => ({
  ok: false,
  answer: problem(status, code, detail),
});

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  type = 'application/json',
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...securityHeaders(),
    'Content-Type': `${type}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(text),
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
