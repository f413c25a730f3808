/**
 * The folder decides the tier: files under test/unit/ run in shared threads with
 * no Redis, so they import no Redis client, no queue, no socket server and no test helper that
 * starts one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('./', import.meta.url).pathname;
/** What a unit file must not import, and what to use instead. */
const FORBIDDEN: [RegExp, string][] = [
  [/^ioredis$|\/store\/redis\.js$/, 'a Redis client'],
  [/^bullmq$/, 'BullMQ'],
  [/^node:(net|http|https|child_process)$/, 'sockets or child processes'],
  [
    /\/support\/(harness|redis-servers|requests|rampart-child|worker-child|seed-service|applying-service)\.js$/,
    'a Redis-using helper',
  ],
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the unit tier', () => {
  it('imports no Redis, queue, socket or Redis-using helper (type-only imports aside)', () => {
    const problems: string[] = [];
    for (const file of filesUnder(ROOT)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
        if (m[1]) continue; // erased at run time
        const spec = m[2] as string;
        for (const [pattern, what] of FORBIDDEN)
          if (pattern.test(spec))
            problems.push(
              `${file.slice(ROOT.length)} imports ${spec} (${what}): move the test out of test/unit/, or use a pure helper.`,
            );
      }
    }
    expect(problems).toEqual([]);
  });
});
