/**
 * Which browser the workbench's browser tests drive, decided without touching the
 * machine so it can be unit-tested for every platform: `CHROME_PATH`, then a system Chrome or
 * Chromium at the usual Linux and macOS paths, then the Linux-x64 build that `npm install`
 * brings (@sparticuz/chromium). Nothing is downloaded from outside the package registries; with
 * no browser, one sentence says how to get one (the tests then fail, never skip).
 */
import { join } from 'node:path';

export interface BrowserHost {
  platform: string;
  arch: string;
  /** CHROME_PATH, when set. */
  chromePath: string | undefined;
  home: string;
  exists(path: string): boolean;
  /** Whether @sparticuz/chromium's compressed build is installed. */
  packagedInstalled: boolean;
}

export type BrowserChoice =
  | { kind: 'executable'; path: string; source: 'CHROME_PATH' | 'system' }
  | { kind: 'packaged' }
  | { kind: 'none'; message: string };

const LINUX = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
];
const MAC_APPS = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
];

/** Where a system Chrome or Chromium usually is, in order of preference. */
export function systemBrowserPaths(platform: string, home: string): string[] {
  if (platform === 'darwin')
    return [
      ...MAC_APPS.map((app) => join('/Applications', app)),
      ...MAC_APPS.map((app) => join(home, 'Applications', app)),
    ];
  if (platform === 'linux') return LINUX;
  return [];
}

function howToGet(platform: string, arch: string): string {
  const where = `${platform}-${arch}`;
  const install =
    platform === 'darwin'
      ? 'install Google Chrome (https://www.google.com/chrome/) or Chromium (brew install --cask chromium)'
      : platform === 'linux'
        ? 'install Chromium (Debian/Ubuntu: sudo apt-get install chromium)'
        : 'install Google Chrome or Chromium';
  return `No Chrome or Chromium for the browser tests on ${where}: ${install}, or set CHROME_PATH to a Chrome or Chromium binary.`;
}

export function resolveBrowser(host: BrowserHost): BrowserChoice {
  if (host.chromePath !== undefined && host.chromePath !== '') {
    return host.exists(host.chromePath)
      ? { kind: 'executable', path: host.chromePath, source: 'CHROME_PATH' }
      : {
          kind: 'none',
          message: `CHROME_PATH is ${host.chromePath}, which does not exist: set it to a Chrome or Chromium binary, or unset it to use a system one.`,
        };
  }
  const system = systemBrowserPaths(host.platform, host.home).find((p) => host.exists(p));
  if (system) return { kind: 'executable', path: system, source: 'system' };
  if (host.platform === 'linux' && host.arch === 'x64') {
    if (host.packagedInstalled) return { kind: 'packaged' };
    return {
      kind: 'none',
      message: `No Chrome or Chromium for the browser tests on linux-x64: run npm install (it brings @sparticuz/chromium), install Chromium (Debian/Ubuntu: sudo apt-get install chromium), or set CHROME_PATH to a Chrome or Chromium binary.`,
    };
  }
  return { kind: 'none', message: howToGet(host.platform, host.arch) };
}
