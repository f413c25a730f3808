/**
 * Rampart's own router: exact paths and path prefixes (room for `/api/` and
 * `/web/`), each with its methods and its own request-body limit. Matching is a map lookup and
 * a short list of prefixes; nothing here reads a body or writes a response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteOptions {
  /** Largest request body accepted, in bytes (0: none); checked against Content-Length first. */
  bodyLimit?: number;
  /** The route's Content-Security-Policy, when it serves more than JSON or text (http/headers.ts). */
  csp?: string;
}

export interface Route {
  handler: Handler;
  bodyLimit: number;
  csp?: string;
}

export type Match = { route: Route } | { status: 404 } | { status: 405; allow: string };

interface Entry {
  methods: Map<Method, Route>;
}

export class Router {
  private readonly exact = new Map<string, Entry>();
  private readonly prefixes: { prefix: string; entry: Entry }[] = [];

  get(path: string, handler: Handler, options: RouteOptions = {}): this {
    return this.add('GET', path, handler, options);
  }

  post(path: string, handler: Handler, options: RouteOptions = {}): this {
    return this.add('POST', path, handler, options);
  }

  /** One method on one exact path; adding the same pair twice is a wiring mistake. */
  add(method: Method, path: string, handler: Handler, options: RouteOptions = {}): this {
    if (!path.startsWith('/')) throw new Error(`route path must start with "/": ${path}`);
    const entry = this.exact.get(path) ?? { methods: new Map() };
    this.exact.set(path, entry);
    put(entry, method, path, handler, options);
    return this;
  }

  /** Every path under `prefix` (which ends in "/"), e.g. `/api/` for the HTTP API adapter. */
  mount(prefix: string, methods: readonly Method[], handler: Handler, options: RouteOptions = {}): this {
    if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw new Error(`mount prefix must be "/…/": ${prefix}`);
    const entry: Entry = { methods: new Map() };
    for (const method of methods) put(entry, method, prefix, handler, options);
    this.prefixes.push({ prefix, entry });
    // Longest prefix first, so `/api/v2/` wins over `/api/`.
    this.prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
    return this;
  }

  /** HEAD is answered by the GET route (node:http sends no body for HEAD). */
  match(method: string, path: string): Match {
    const entry = this.exact.get(path) ?? this.prefixes.find((p) => path.startsWith(p.prefix))?.entry;
    if (!entry) return { status: 404 };
    const wanted = (method === 'HEAD' ? 'GET' : method) as Method;
    const route = entry.methods.get(wanted);
    if (route) return { route };
    const allow = [...entry.methods.keys()];
    if (allow.includes('GET')) allow.push('HEAD' as Method);
    return { status: 405, allow: allow.join(', ') };
  }
}

function put(entry: Entry, method: Method, path: string, handler: Handler, options: RouteOptions): void {
  if (entry.methods.has(method)) throw new Error(`route ${method} ${path} is registered twice`);
  entry.methods.set(method, {
    handler,
    bodyLimit: options.bodyLimit ?? 0,
    ...(options.csp ? { csp: options.csp } : {}),
  });
}
