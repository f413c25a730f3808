/**
 * The browser of last resort on Linux x64: the headless Chromium that `npm install`
 * brings as @sparticuz/chromium, unpacked by that package's own API. The package unpacks into
 * the temp dir (a fixed /tmp/chromium another user of the machine could plant), so it runs in a
 * child process whose TMPDIR is a fresh folder under node_modules/.cache/ of this checkout; the
 * folder is then renamed into place whole, so test files starting in parallel never launch a
 * half-written binary.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

const PACKAGE = '@sparticuz/chromium';
const run = promisify(execFile);

export interface LaunchableBrowser {
  executablePath: string;
  /** Extra environment for the browser process. */
  env: Record<string, string>;
}

/** The package's folder (its exports hide package.json), or undefined when it is not installed. */
export function packageRoot(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve(PACKAGE);
    return entry.slice(0, entry.lastIndexOf(join(...PACKAGE.split('/'))) + PACKAGE.length);
  } catch {
    return undefined;
  }
}

export const packagedInstalled = (): boolean => {
  const root = packageRoot();
  return root !== undefined && existsSync(join(root, 'bin', 'chromium.br'));
};

/** Its own font beside the system's, and a font cache of its own. */
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

/** Unpacks the packaged Chromium if this version is not unpacked yet; returns how to launch it. */
export async function packagedChromium(): Promise<LaunchableBrowser> {
  const root = packageRoot();
  if (!root) throw new Error(`${PACKAGE} is not installed: run npm install.`);
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  const cache = join(root, '..', '..', '.cache', 'rampart-browser'); // node_modules/.cache/
  const dir = join(cache, version);
  // TMPDIR: Chromium leaves an empty .org.chromium.Chromium.* file per run; keep them out of /tmp.
  const done = {
    executablePath: join(dir, 'chromium'),
    env: { FONTCONFIG_FILE: join(dir, 'rampart-fonts.conf'), TMPDIR: join(dir, 'tmp') },
  };
  if (existsSync(done.env.FONTCONFIG_FILE)) return done;
  const scratch = join(cache, `.unpack-${randomUUID()}`);
  try {
    await mkdir(join(scratch, 'tmp'), { recursive: true });
    const script = `import chromium from '${PACKAGE}'; process.stdout.write(await chromium.executablePath());`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env: { ...process.env, TMPDIR: scratch },
      timeout: 120_000,
    });
    if (stdout !== join(scratch, 'chromium')) throw new Error(`${PACKAGE} unpacked to ${stdout}, not ${scratch}`);
    await writeFile(join(scratch, 'rampart-fonts.conf'), fontsConf(dir));
    await rename(scratch, dir).catch((err: NodeJS.ErrnoException) => {
      // Another test file won the race: its copy is whole, and ours is discarded below.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return done;
}
