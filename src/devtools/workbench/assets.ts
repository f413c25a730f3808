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

// tsc does not copy public/ into dist, so a built copy reads the files from src.
const CANDIDATES = [
  new URL('./public/', import.meta.url),
  new URL('../../../src/devtools/workbench/public/', import.meta.url),
];

export async function loadAssets(): Promise<Assets> {
  const dir = CANDIDATES.find((c) => existsSync(new URL('index.html', c)));
  if (!dir) throw new Error('the workbench page (src/devtools/workbench/public/) is missing');
  const loaded = new Map<string, Asset>();
  for (const file of await readdir(dir)) {
    const type = TYPES[extname(file)];
    if (!type) continue;
    const body = await readFile(new URL(file, dir));
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
