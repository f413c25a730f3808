/**
 * The folder decides the tier: files under test/unit/ run in shared threads with
 * no Redis, so they import no Redis client, no queue, no socket server and no test helper that
 * starts one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('./', import.meta.url).pathname;
const REPO = join(ROOT, '../..');
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

/** What no file a unit test reaches may import: all of the above but the built-in modules. */
const THROUGH = FORBIDDEN.filter(([pattern]) => !pattern.test('node:net'));

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

  // A barrel (devkit/index.ts) or a helper can bring the whole app in behind one import: Redis,
  // BullMQ, the composition root. Then every run of the tier pays for loading them. (A built-in
  // module is no such cost: src/ may use node:net's isIP or node:http's STATUS_CODES.)
  it('reaches no Redis client, queue or Redis-using helper through another file either (a barrel, src/)', () => {
    const problems: string[] = [];
    const seen = new Map<string, string[]>();
    const queue: string[][] = filesUnder(ROOT)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => [f]);
    while (queue.length > 0) {
      const chain = queue.shift() as string[];
      const file = chain.at(-1) as string;
      if (seen.has(file)) continue;
      seen.set(file, chain);
      for (const spec of runtimeImports(file)) {
        if (!spec.startsWith('.')) {
          const hit = THROUGH.find(([pattern]) => pattern.test(spec));
          if (hit && chain.length > 1)
            problems.push(`${[...chain.map((f) => relative(REPO, f)), spec].join(' → ')} (${hit[1]})`);
          continue;
        }
        const target = join(dirname(file), spec).replace(/\.js$/, '.ts');
        const hit = THROUGH.find(([pattern]) => pattern.test(spec));
        if (hit && chain.length > 1)
          problems.push(`${[...chain.map((f) => relative(REPO, f)), spec].join(' → ')} (${hit[1]})`);
        if (existsSync(target) && !seen.has(target)) queue.push([...chain, target]);
      }
    }
    expect(problems).toEqual([]);
  });
});

/** The specifiers a file imports or re-exports at run time (type-only ones are erased). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'/gms)) {
    if (m[2]) continue;
    if (m[1] === 'export' && !/^[*{]/.test(m[3] as string)) continue;
    specs.push(m[4] as string);
  }
  return specs;
}
