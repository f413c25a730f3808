/**
 * A loopback stand-in for the wallet service that APPLIES every call it receives (counts it, as
 * the real service would move the money) and then answers however a test says: a 5xx, HTML,
 * malformed JSON, a trickle, a huge body, an echo of the key, or no answer at all.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface ApplyingService {
  url: string;
  /** How many calls were applied, per path. */
  applied(path: string): number;
  /** The answer for the next calls (until changed). */
  answer: Answer;
  /** Bytes of body the last `huge` answer managed to hand to the socket before the client left. */
  hugeBytesWritten: number;
  close(): Promise<void>;
}

export const envelopeText = (status: number, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ success: status < 400, status, message, timestamp: new Date().toISOString(), ...extra });

/** A fixed status, content type and body. */
export const fixed =
  (status: number, body: string, contentType = 'application/json'): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': contentType }).end(body);
  };

/** A well-formed transfer success (spec 4.2). */
export const transferOk: Answer = (_req, res) => {
  const hash = `0x${'ab'.repeat(32)}`;
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(envelopeText(200, 'Transfer initiated', { data: { hash, link: `https://basescan.org/tx/${hash}` } }));
};

/** Headers at once, then one byte every `everyMs`: undici's idle timers never fire. */
export const drip =
  (everyMs = 200): Answer =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), everyMs);
    res.on('close', () => clearInterval(timer));
  };

export const hang: Answer = () => {};

/** What the service behind a forwarding stand-in answered one call. */
export interface Forwarded {
  status: number;
  contentType: string;
  text: string;
}

/** Sends the call on to `target` (which applies it: the money moves there) and reads its answer. */
export async function forward(target: string, req: IncomingMessage, body: string): Promise<Forwarded> {
  const method = req.method ?? 'GET';
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
  const upstream = await fetch(`${target}${req.url ?? '/'}`, {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
  });
  return {
    status: upstream.status,
    contentType: upstream.headers.get('content-type') ?? 'application/json',
    text: await upstream.text(),
  };
}

/** Answers with what the service behind said, unchanged. */
export const passOn = (res: ServerResponse, f: Forwarded): void => {
  res.writeHead(f.status, { 'content-type': f.contentType }).end(f.text);
};

/** The call's path, without its query. */
export const pathOf = (req: IncomingMessage): string => new URL(req.url ?? '/', 'http://x').pathname;

export async function startApplyingService(initial: Answer = transferOk): Promise<ApplyingService> {
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const service: ApplyingService = {
    url: '',
    applied: (path) => counts.get(path) ?? 0,
    answer: initial,
    hugeBytesWritten: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      const path = pathOf(req);
      counts.set(path, (counts.get(path) ?? 0) + 1); // applied: the money has moved
      service.answer(req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}

/** 150 MB of valid-looking JSON, streamed with back-pressure; records what the socket took. */
export const huge =
  (service: ApplyingService, totalBytes = 150 * 1024 * 1024): Answer =>
  (_req, res) => {
    service.hugeBytesWritten = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.writeHead(200, { 'content-type': 'application/json' });
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const pump = () => {
      while (!closed && service.hugeBytesWritten < totalBytes) {
        service.hugeBytesWritten += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!closed) res.end();
    };
    pump();
  };
