/**
 * Static files of the passkey pages: our module and stylesheet, and the browser
 * helper of @simplewebauthn served from node_modules by Rampart itself (no CDN, no third-party
 * origin). The helper's files are read once into memory; only those exact paths are served.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { CLIENT_MODULE, STYLESHEET } from './client.js';

export interface Asset {
  type: string;
  body: string;
}

const JS = 'text/javascript; charset=utf-8';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat();
}

/** Path under assets/ → file. The helper's ES modules sit under webauthn/. */
export async function loadAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>([
    ['passkey.js', { type: JS, body: CLIENT_MODULE }],
    ['passkey.css', { type: 'text/css; charset=utf-8', body: STYLESHEET }],
  ]);
  const require = createRequire(import.meta.url);
  // Its "require" entry is script/index.js; the ES modules are in esm/ beside it.
  const esm = join(dirname(require.resolve('@simplewebauthn/browser')), '..', 'esm');
  for (const file of await filesUnder(esm)) {
    if (!file.endsWith('.js')) continue;
    const path = relative(esm, file).split(sep).join('/');
    assets.set(`webauthn/${path}`, { type: JS, body: await readFile(file, 'utf8') });
  }
  return assets;
}
