/**
 * One door, held by the import graph. The lint (biome.jsonc, one rule over src/adapters/) sees
 * only a file's own imports; this walks them: an adapter that reaches store/, service/, the
 * composition root or the sandbox through a middle file (a presenter, a metrics helper…) fails
 * here with the chain. The walk stops at app/: the use cases are the one way to the stores.
 * app/ itself never reaches an adapter, directly or through another file, and only the
 * composition root reaches the job queue's plumbing (adapters/jobs/, not its handlers' port).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(new URL('.', import.meta.url).pathname, '../..'));
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports and re-exports, type-only ones included: a type can carry a store out too. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/g)) {
    const spec = (m[1] as string).replace(/\.js$/, '.ts');
    out.push(normalize(join(dirname(file), spec)));
  }
  for (const m of text.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g))
    out.push(normalize(join(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))));
  return out;
}

const rel = (f: string) => relative(SRC, f);
const graph = new Map(files(SRC).map((f) => [f, importsOf(f)]));
const under = (folder: string) => (f: string) => rel(f).startsWith(`${folder}/`);

/**
 * Every chain from `start` to a file `forbidden` accepts, not walking into files `stop` accepts.
 * Returns the first such chain per forbidden target.
 */
function reaches(start: string, forbidden: (f: string) => boolean, stop: (f: string) => boolean): string[][] {
  const found: string[][] = [];
  const seen = new Set<string>([start]);
  const queue: string[][] = [[start]];
  while (queue.length > 0) {
    const path = queue.shift() as string[];
    for (const next of graph.get(path.at(-1) as string) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      if (forbidden(next)) found.push([...path, next]);
      else if (!stop(next)) queue.push([...path, next]);
    }
  }
  return found;
}

const chains = (list: string[][]) => list.map((c) => c.map(rel).join(' → '));
const adapters = [...graph.keys()].filter(under('adapters'));

describe('the import graph', () => {
  it('has the adapters it is meant to check', () => {
    for (const door of ['slack', 'api', 'web', 'cli', 'jobs', 'http'])
      expect(adapters.some(under(`adapters/${door}`)), door).toBe(true);
  });

  it('no adapter reaches store/, service/, compose/ or sandbox/, directly or through another file', () => {
    const forbidden = (f: string) => ['store', 'service', 'compose', 'sandbox'].some((d) => under(d)(f));
    const problems = adapters.flatMap((a) =>
      chains(reaches(a, forbidden, (f) => under('app')(f) || under('adapters')(f))),
    );
    expect(problems).toEqual([]);
  });

  it('only the job adapter and the composition root touch the queue plumbing', () => {
    const plumbing = (f: string) =>
      ['adapters/jobs/queues.ts', 'adapters/jobs/worker.ts'].includes(rel(f)) || under('adapters/jobs/handlers')(f);
    const outside = [...graph.keys()].filter((f) => !under('adapters/jobs')(f) && !under('compose')(f));
    const problems = outside.flatMap((f) =>
      chains(reaches(f, plumbing, (g) => under('compose')(g) || under('app')(g) || under('adapters')(g))),
    );
    expect(
      problems.filter((p) => !p.startsWith('rampart.ts') && !p.startsWith('main.ts') && !p.startsWith('audit/')),
    ).toEqual([]);
  });

  it('app/ reaches no adapter, directly or through another file', () => {
    const apps = [...graph.keys()].filter(under('app'));
    const problems = apps.flatMap((a) => chains(reaches(a, under('adapters'), () => false)));
    expect(problems).toEqual([]);
  });

  it('catches a middle file: a walk from a fake adapter through a presenter into store/ is reported', () => {
    const fakeAdapter = join(SRC, 'adapters/slack/__fake.ts');
    const middle = join(SRC, 'presenters/__middle.ts');
    const store = join(SRC, 'store/requests.ts');
    graph.set(fakeAdapter, [middle]);
    graph.set(middle, [store]);
    try {
      const forbidden = (f: string) => under('store')(f);
      expect(chains(reaches(fakeAdapter, forbidden, under('app')))).toEqual([
        'adapters/slack/__fake.ts → presenters/__middle.ts → store/requests.ts',
      ]);
    } finally {
      graph.delete(fakeAdapter);
      graph.delete(middle);
    }
  });
});
