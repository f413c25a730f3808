/** What the audit files share: their clean-up and `rampart audit export` as JSON Lines, read back. */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import { cli } from '../cli/support.js';
import { deleteKeys } from '../support/harness.js';

/** Closes the file's connection, then deletes its keys and its temp folder. */
export async function cleanUp(redis: Redis, prefix: string, dir: string): Promise<void> {
  await redis.quit();
  await deleteKeys(prefix);
  await rm(dir, { recursive: true, force: true });
}

/** `rampart audit export --format jsonl` into `dir`, which must succeed: its answer, the file and its rows. */
export async function exportJsonl<Row = Record<string, unknown>>(dir: string, env: Record<string, string>) {
  const out = join(dir, 'all.jsonl');
  const r = await cli(['audit', 'export', '--format', 'jsonl', '--out', out], env);
  expect(r.code, r.stderr).toBe(0);
  const rows = (await readFile(out, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
  return { r, out, rows };
}
