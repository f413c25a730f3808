/**
 * The Chromium of the workbench browser tests comes from npm (`@sparticuz/chromium`, a
 * headless-shell build with its own NSS libraries and a font), so a fresh clone needs no system
 * browser (issue 10, item 4). It is unpacked once per package version into
 * node_modules/.cache/ of this checkout — not the package's own fixed /tmp/chromium, which another
 * user of the machine could plant — and renamed into place whole, so test files starting in
 * parallel never launch a half-written binary.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

const PACKAGE = '@sparticuz/chromium';

export interface PackagedChromium {
  executablePath: string;
  /** LD_LIBRARY_PATH (the NSS libraries it links) and FONTCONFIG_FILE (its font beside the system's). */
  env: Record<string, string>;
}

/** Files of an uncompressed ustar archive; paths that would leave `into` are refused. */
async function untar(archive: Buffer, into: string): Promise<void> {
  for (let at = 0; at + 512 <= archive.length; ) {
    const header = archive.subarray(at, at + 512);
    if (header.every((b) => b === 0)) return;
    const text = (from: number, to: number) => header.toString('utf8', from, to).replace(/\0.*$/s, '');
    const name = [text(345, 500), text(0, 100)].filter(Boolean).join('/');
    const size = Number.parseInt(text(124, 136).trim() || '0', 8);
    const type = text(156, 157) || '0';
    const body = archive.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    const target = normalize(join(into, name));
    if (!target.startsWith(into + sep)) throw new Error(`${PACKAGE}: refusing archive entry ${name}`);
    if (type === '5') await mkdir(target, { recursive: true });
    else if (type === '0') {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, body);
    } else if (type !== 'x' && type !== 'g') throw new Error(`${PACKAGE}: unexpected archive entry ${name} (${type})`);
  }
}

function fontsConf(dir: string): string {
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    `  <dir>${join(dir, 'fonts')}</dir>`,
    `  <cachedir>${join(dir, 'fonts-cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

async function unpack(bin: string, dir: string): Promise<void> {
  const unbrotli = async (file: string) => brotliDecompressSync(await readFile(join(bin, file)));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'chromium'), await unbrotli('chromium.br'));
  await chmod(join(dir, 'chromium'), 0o700);
  await untar(await unbrotli('al2023.tar.br'), dir); // lib/: libnss3, libnspr4, libexpat…
  await untar(await unbrotli('fonts.tar.br'), dir); // fonts/: Open Sans
  await mkdir(join(dir, 'tmp'));
  await writeFile(join(dir, 'rampart-fonts.conf'), fontsConf(dir));
}

/** Unpacks the packaged Chromium if this version is not unpacked yet; returns how to launch it. */
export async function packagedChromium(): Promise<PackagedChromium> {
  const require = createRequire(import.meta.url);
  // Its exports hide package.json: find the package's folder from its entry point.
  const entry = require.resolve(PACKAGE);
  const root = entry.slice(0, entry.lastIndexOf(join(...PACKAGE.split('/'))) + PACKAGE.length);
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  const cache = join(root, '..', '..', '.cache', 'rampart-chromium'); // node_modules/.cache/
  const dir = join(cache, version);
  const done = { executablePath: join(dir, 'chromium'), env: launchEnv(dir) };
  try {
    await readFile(join(dir, 'rampart-fonts.conf'));
    // A copy unpacked before TMPDIR moved here has no tmp/ yet.
    await mkdir(join(dir, 'tmp'), { recursive: true });
    return done;
  } catch {
    // Not unpacked yet: unpack beside it, then rename into place (the loser of a race discards its copy).
  }
  const scratch = join(cache, `.unpack-${randomUUID()}`);
  try {
    await unpack(join(root, 'bin'), scratch);
    await rename(scratch, dir).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return done;
}

function launchEnv(dir: string): Record<string, string> {
  const libs = [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  // TMPDIR: Chromium leaves an empty .org.chromium.Chromium.* file per run; keep them out of /tmp.
  return { LD_LIBRARY_PATH: libs, FONTCONFIG_FILE: join(dir, 'rampart-fonts.conf'), TMPDIR: join(dir, 'tmp') };
}
