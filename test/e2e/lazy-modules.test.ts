/**
 * Memory: modules most processes never use are loaded when needed, not at
 * start. A child process imports what `main.ts` starts (rampart.ts and connect-service.ts) with a
 * module hook that writes every URL loaded; passkey verification, the OpenAPI generator and the
 * sandbox must not be among them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'rampart-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOOK = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.MODULE_LOG, url + '\\n');
  return next(url, context);
}`;

function loadedBy(files: string[]): string[] {
  const log = join(dir, 'loaded.txt');
  const imports = files.map((f) => `await import(${JSON.stringify(pathToFileURL(resolve(f)).href)});`).join('\n');
  const script = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});
${imports}`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, MODULE_LOG: log },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return readFileSync(log, 'utf8').split('\n');
}

it('starting Rampart loads neither @simplewebauthn/server, zod-to-openapi nor the sandbox', () => {
  const loaded = loadedBy(['src/rampart.ts', 'src/connect-service.ts']);
  // The hook saw the start-up graph, so what is missing is missing for a reason.
  expect(loaded.some((u) => u.endsWith('/src/adapters/slack/app.ts'))).toBe(true);
  expect(loaded.some((u) => u.includes('/node_modules/@slack/bolt/'))).toBe(true);
  const unwanted = loaded.filter((u) =>
    ['/node_modules/@simplewebauthn/server/', '/node_modules/@asteasolutions/zod-to-openapi/', '/src/sandbox/'].some(
      (part) => u.includes(part),
    ),
  );
  expect(unwanted).toEqual([]);
});
