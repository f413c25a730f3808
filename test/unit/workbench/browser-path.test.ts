/** The browser resolver on four platforms, over a fake file system. */
import { describe, expect, it } from 'vitest';
import { type BrowserHost, resolveBrowser } from '../../workbench/browser-path.js';

const MAC_CHROME = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
const MAC_CHROMIUM = '/Applications/Chromium.app/Contents/MacOS/Chromium';
const MAC_USER_CHROME = '/Users/riley/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';

function host(platform: string, arch: string, files: string[], extra: Partial<BrowserHost> = {}): BrowserHost {
  const fs = new Set(files);
  return {
    platform,
    arch,
    chromePath: undefined,
    home: platform === 'darwin' ? '/Users/riley' : '/home/riley',
    exists: (path) => fs.has(path),
    packagedInstalled: true,
    ...extra,
  };
}

const PLATFORMS = [
  ['darwin', 'arm64'],
  ['darwin', 'x64'],
  ['linux', 'arm64'],
  ['linux', 'x64'],
] as const;

describe('resolveBrowser', () => {
  it.each(PLATFORMS)('%s-%s: CHROME_PATH comes first, when it exists', (platform, arch) => {
    const files = ['/opt/my/chrome', MAC_CHROME, '/usr/bin/chromium'];
    expect(resolveBrowser(host(platform, arch, files, { chromePath: '/opt/my/chrome' }))).toEqual({
      kind: 'executable',
      path: '/opt/my/chrome',
      source: 'CHROME_PATH',
    });
  });

  it.each(PLATFORMS)(
    '%s-%s: a CHROME_PATH that does not exist is one sentence, not a silent fallback',
    (platform, arch) => {
      expect(resolveBrowser(host(platform, arch, [MAC_CHROME, '/usr/bin/chromium'], { chromePath: '/nope' }))).toEqual({
        kind: 'none',
        message:
          'CHROME_PATH is /nope, which does not exist: set it to a Chrome or Chromium binary, or unset it to use a system one.',
      });
    },
  );

  it.each([
    ['arm64', [MAC_CHROME, MAC_CHROMIUM], MAC_CHROME],
    ['x64', [MAC_CHROMIUM], MAC_CHROMIUM],
    ['arm64', [MAC_USER_CHROME], MAC_USER_CHROME],
  ])('darwin-%s: finds a system browser in /Applications or ~/Applications', (arch, files, found) => {
    expect(resolveBrowser(host('darwin', arch, files))).toEqual({ kind: 'executable', path: found, source: 'system' });
  });

  it.each(['arm64', 'x64'])(
    'darwin-%s: with no browser, says how to get one (the packaged build is Linux-only)',
    (arch) => {
      expect(resolveBrowser(host('darwin', arch, ['/usr/bin/chromium']))).toEqual({
        kind: 'none',
        message: `No Chrome or Chromium for the browser tests on darwin-${arch}: install Google Chrome (https://www.google.com/chrome/) or Chromium (brew install --cask chromium), or set CHROME_PATH to a Chrome or Chromium binary.`,
      });
    },
  );

  it.each([
    ['arm64', ['/usr/bin/chromium', '/usr/bin/google-chrome'], '/usr/bin/chromium'],
    ['x64', ['/usr/bin/google-chrome-stable'], '/usr/bin/google-chrome-stable'],
    ['x64', ['/snap/bin/chromium'], '/snap/bin/chromium'],
  ])('linux-%s: prefers a system browser to the packaged one', (arch, files, found) => {
    expect(resolveBrowser(host('linux', arch, files))).toEqual({ kind: 'executable', path: found, source: 'system' });
  });

  it('linux-x64: falls back to the packaged Chromium that npm install brings', () => {
    expect(resolveBrowser(host('linux', 'x64', [MAC_CHROME]))).toEqual({ kind: 'packaged' });
  });

  it('linux-x64: without the package either, says how to get a browser', () => {
    expect(resolveBrowser(host('linux', 'x64', [], { packagedInstalled: false }))).toEqual({
      kind: 'none',
      message:
        'No Chrome or Chromium for the browser tests on linux-x64: run npm install (it brings @sparticuz/chromium), install Chromium (Debian/Ubuntu: sudo apt-get install chromium), or set CHROME_PATH to a Chrome or Chromium binary.',
    });
  });

  it('linux-arm64: never the packaged x64 build; says how to get a browser', () => {
    expect(resolveBrowser(host('linux', 'arm64', [MAC_CHROME]))).toEqual({
      kind: 'none',
      message:
        'No Chrome or Chromium for the browser tests on linux-arm64: install Chromium (Debian/Ubuntu: sudo apt-get install chromium), or set CHROME_PATH to a Chrome or Chromium binary.',
    });
  });
});
