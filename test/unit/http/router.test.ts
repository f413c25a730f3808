/** Rampart's router as a pure table: exact paths, prefixes, methods, limits. */
import { describe, expect, it } from 'vitest';
import { type Handler, Router } from '../../../src/adapters/http/router.js';

const a: Handler = () => {};
const b: Handler = () => {};
const c: Handler = () => {};

const routeOf = (r: Router, method: string, path: string) => {
  const m = r.match(method, path);
  return 'route' in m ? m.route : m;
};

describe('Router', () => {
  const router = new Router()
    .get('/livez', a)
    .post('/slack/events', b, { bodyLimit: 1024 })
    .mount('/api/', ['GET', 'POST'], c, { bodyLimit: 64 })
    .mount('/api/v2/', ['GET'], a);

  it('finds an exact path by method, with its body limit (none unless given)', () => {
    expect(routeOf(router, 'GET', '/livez')).toEqual({ handler: a, bodyLimit: 0 });
    expect(routeOf(router, 'POST', '/slack/events')).toEqual({ handler: b, bodyLimit: 1024 });
  });

  it('answers HEAD with the GET route', () => {
    expect(routeOf(router, 'HEAD', '/livez')).toEqual({ handler: a, bodyLimit: 0 });
  });

  it('says 405 with the allowed methods for a known path, 404 for an unknown one', () => {
    expect(router.match('POST', '/livez')).toEqual({ status: 405, allow: 'GET, HEAD' });
    expect(router.match('GET', '/slack/events')).toEqual({ status: 405, allow: 'POST' });
    expect(router.match('GET', '/nothing')).toEqual({ status: 404 });
    // Exact means exact: no trailing-slash or sub-path leniency.
    expect(router.match('GET', '/livez/')).toEqual({ status: 404 });
    expect(router.match('POST', '/slack/events/x')).toEqual({ status: 404 });
  });

  it('serves every path under a mounted prefix, the longest prefix first', () => {
    expect(routeOf(router, 'POST', '/api/v1/transfers')).toEqual({ handler: c, bodyLimit: 64 });
    expect(routeOf(router, 'GET', '/api/v2/transfers')).toEqual({ handler: a, bodyLimit: 0 });
    expect(router.match('POST', '/api/v2/transfers')).toEqual({ status: 405, allow: 'GET, HEAD' });
    expect(router.match('GET', '/api')).toEqual({ status: 404 });
  });

  it('refuses wiring mistakes at start-up', () => {
    expect(() => new Router().get('/x', a).get('/x', b)).toThrow('route GET /x is registered twice');
    expect(() => new Router().get('x', a)).toThrow('must start with "/"');
    expect(() => new Router().mount('/api', ['GET'], a)).toThrow('mount prefix');
  });
});
