/** Reading Web API requests the way Slack accepts them, and writing JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject } from './types.js';

// Arguments @slack/web-api sends as JSON strings inside a form body.
const JSON_STRING_FIELDS = ['blocks', 'attachments', 'view', 'metadata', 'unfurls', 'user_auth_blocks'] as const;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

export type ParsedArgs = { ok: true; args: JsonObject } | { ok: false; error: string };

/** Form (`application/x-www-form-urlencoded`) or JSON body, plus query string; JSON-string fields decoded. */
export function parseArgs(contentType: string | undefined, raw: string, query: URLSearchParams): ParsedArgs {
  const args: JsonObject = Object.fromEntries(query);
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (raw.length > 0) {
    if (type === 'application/json') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return { ok: false, error: 'invalid_json' };
      }
      if (!isObject(parsed)) return { ok: false, error: 'invalid_json' };
      Object.assign(args, parsed);
    } else if (type === 'application/x-www-form-urlencoded' || type === 'text/plain' || type === '') {
      Object.assign(args, Object.fromEntries(new URLSearchParams(raw)));
    } else {
      return { ok: false, error: 'invalid_post_type' };
    }
  }
  for (const key of JSON_STRING_FIELDS) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    try {
      args[key] = JSON.parse(value);
    } catch {
      // Left as a string: the method then answers as Slack does for malformed blocks.
    }
  }
  return { ok: true, args };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** The token of a Web API call: the bearer header, else a `token` argument (older clients). */
export function tokenOf(req: IncomingMessage, args: JsonObject): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return typeof args.token === 'string' ? args.token : undefined;
}
