/**
 * Rampart's HTTP server on a real loopback socket: security headers on every
 * answer, 404/405, body limits before and while reading, a failing route answered with one
 * sentence, and a client too slow with its request cut off.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBody, readJson } from '../../src/adapters/http/body.js';
import { PAGE_CSP } from '../../src/adapters/http/headers.js';
import { Router } from '../../src/adapters/http/router.js';
import { createHttpServer, DEFAULT_LIMITS, type HttpServer, json, plain } from '../../src/adapters/http/server.js';
import { createLogger } from '../../src/log.js';
import { LogSink } from '../support/log-sink.js';

const logs = new LogSink();
const log = createLogger({ level: 'debug' }, logs);
let handled = 0;

const router = new Router()
  .get('/ok', (_req, res) => plain(res, 200, 'ok'))
  .post(
    '/echo',
    async (req, res) => {
      handled += 1;
      try {
        json(res, 200, { got: (await readBody(req, 16)).toString() });
      } catch (err) {
        if (err instanceof BodyTooLargeError) plain(res, 413, err.message);
        else throw err;
      }
    },
    { bodyLimit: 16 },
  )
  .get('/throws', () => {
    throw new Error('boom with a detail nobody outside should see');
  })
  .get('/rejects', async () => {
    throw new Error('async boom');
  })
  .post(
    '/json',
    async (req, res) => {
      const body = await readJson(req, { maxBytes: 64, timeoutMs: 5_000, maxDepth: 3 });
      json(res, 200, body.ok ? { value: body.value } : { reason: body.reason });
    },
    { bodyLimit: 1024 },
  )
  .mount('/pages/', ['GET'], (_req, res) => plain(res, 200, 'page'), { csp: PAGE_CSP });

let server: HttpServer;
let base: string;
let port: number;
beforeAll(async () => {
  server = createHttpServer(router, log, {
    ...DEFAULT_LIMITS,
    headersTimeoutMs: 300,
    requestTimeoutMs: 400,
    checkEveryMs: 50,
  });
  port = await server.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => server.close());

const get = async (path: string, init: Parameters<typeof request>[1] = {}) => {
  const res = await request(`${base}${path}`, init);
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
};

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

describe("Rampart's HTTP server", () => {
  it('sets the security headers on every answer, and no X-Powered-By', async () => {
    const answers = [
      await get('/ok'),
      await get('/missing'),
      await get('/ok', { method: 'POST', body: '' }),
      await get('/echo', { method: 'POST', body: 'x'.repeat(17) }),
      await get('/throws'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 405, 413, 500]);
    for (const a of answers) {
      expect(a.headers).toMatchObject(SECURITY);
      expect(a.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('sets a mount’s own Content-Security-Policy on its answers only, the rest of the set unchanged', async () => {
    const page = await get('/pages/step-up');
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({ ...SECURITY, 'content-security-policy': PAGE_CSP });
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    for (const other of [await get('/ok'), await get('/missing')]) expect(other.headers).toMatchObject(SECURITY);
  });

  it('reads a JSON body with the one reader, or says why not', async () => {
    const post = async (body: string, type = 'application/json') =>
      JSON.parse((await get('/json', { method: 'POST', headers: { 'content-type': type }, body })).text) as unknown;
    expect(await post('{"token":"t"}')).toEqual({ value: { token: 't' } });
    expect(await post('{"a":1}', 'text/plain')).toEqual({ reason: 'media_type' });
    expect(await post(`{"a":"${'x'.repeat(64)}"}`)).toEqual({ reason: 'too_large' });
    expect(await post('[[[[1]]]]')).toEqual({ reason: 'too_deep' });
    expect(await post('{"a":')).toEqual({ reason: 'malformed' });
  });

  it('says 404 for an unknown path and 405 with Allow for a wrong method', async () => {
    expect(await get('/missing')).toMatchObject({ status: 404, text: 'Not found.\n' });
    const wrong = await get('/echo');
    expect(wrong).toMatchObject({ status: 405, text: 'Use POST here.\n' });
    expect(wrong.headers.allow).toBe('POST');
  });

  it('refuses a declared body over the route limit before the route runs', async () => {
    const before = handled;
    const res = await get('/echo', { method: 'POST', body: 'x'.repeat(17) });
    expect(res).toMatchObject({ status: 413, text: 'The request body is over 16 bytes; send a smaller one.\n' });
    expect(handled).toBe(before);
    // A body on a route that takes none.
    expect((await get('/ok', { method: 'GET', headers: { 'content-length': '5' }, body: 'hello' })).status).toBe(413);
  });

  it('stops a chunked body at the first byte past the limit, and reads one within it', async () => {
    const chunks = (parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));
    const over = await get('/echo', { method: 'POST', body: chunks(['x'.repeat(10), 'y'.repeat(10)]) });
    expect(over).toMatchObject({ status: 413, text: 'The request body is over 16 bytes; send a smaller one.\n' });
    const within = await get('/echo', { method: 'POST', body: chunks(['abc', 'def']) });
    expect(within).toMatchObject({ status: 200, text: '{"got":"abcdef"}' });
  });

  it('answers a failing route with one sentence and logs the error, sync or async', async () => {
    for (const path of ['/throws', '/rejects']) {
      const res = await get(path);
      expect(res).toMatchObject({ status: 500, text: 'Rampart could not answer this request; see its log.\n' });
      expect(res.text).not.toContain('boom');
    }
    expect(logs.text).toContain('boom with a detail nobody outside should see');
    expect(logs.text).toContain('async boom');
  });

  it('cuts off a client that never finishes its headers (slowloris)', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /ok HTTP/1.1\r\nHost: x\r\n'); // never the blank line
    const started = Date.now();
    let answer = '';
    socket.on('data', (d: Buffer) => {
      answer += d.toString();
    });
    await new Promise((resolve) => socket.on('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
