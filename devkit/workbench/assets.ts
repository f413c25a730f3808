/**
 * The page's files, read once from public/ and served from memory with a strict
 * Content-Security-Policy: everything comes from the package, nothing from a CDN.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // Image blocks point at images elsewhere, as in Slack.
  'img-src * data:',
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface Asset {
  body: Buffer;
  headers: Record<string, string>;
}

export interface Assets {
  get(path: string): Asset | undefined;
}

// Beside this module: the devkit is never compiled into dist, so there is one copy.
const PUBLIC = new URL('./public/', import.meta.url);

export async function loadAssets(): Promise<Assets> {
  const dir = PUBLIC;
  if (!existsSync(new URL('index.html', dir)))
    throw new Error('the workbench page (devkit/workbench/public/) is missing');
  const loaded = new Map<string, Asset>();
  for (const file of await readdir(PUBLIC)) {
    const type = TYPES[extname(file)];
    if (!type) continue;
    const body = await readFile(new URL(file, PUBLIC));
    loaded.set(file === 'index.html' ? '/' : `/${file}`, {
      body,
      headers: {
        'content-type': type,
        'content-length': String(body.length),
        'cache-control': 'no-store',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
      },
    });
  }
  return { get: (path) => loaded.get(path) };
}
