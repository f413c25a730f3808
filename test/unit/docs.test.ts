/**
 * The docs say what the code does: the configuration reference lists exactly the
 * settings loadConfig reads, the README lists exactly the bot scopes the manifest asks for, the
 * README stays a front door, the docs index lists every page, every `src/` path the docs name
 * exists, and no page cites our issue numbers (a reader has no tracker; the history is in git). Each failure names what to
 * write where. The same holds for every comment and test name outside the docs: the code, the tests, the bench, the
 * devkit and the configuration say why, never when.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BOT_SCOPES } from '../../src/domain/slack-scopes.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const SETTING = /^[A-Z][A-Z0-9_]+$/;
/** Every page a reader sees: the two front pages and every page under docs/. */
const DOC_PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/**
 * A citation of an issue tracker: ours (the word "issue" and a number, with or without `#`) is refused; an outside
 * project's names the project first ("bullmq issue #", "slackapi/bolt-js issue ", then the number) and stays, as a
 * fact a reader can follow. A GitHub address (…/issues/ and the number) is not a match at all. This file spells its
 * own examples with `${n}` so that it passes its own check.
 */
const ISSUE_NUMBER =
  /\b(?:([\w.-]+\/[\w.-]+|bullmq|ioredis|bolt|bolt-js|undici|zod|pino|vitest|node|nodejs|redis|playwright|chromium|biome|typescript|fast-check|slack)\s+)?issues? ?#?\d+/gi;
/** Our own issue numbers cited in a text; an outside project's are not. */
const ourIssueNumbers = (text: string): string[] =>
  [...text.matchAll(ISSUE_NUMBER)].filter((m) => m[1] === undefined).map((m) => m[0]);

/** Outside the doc pages: everything the repository holds but the CHANGELOG (history by design) and the lock file. */
const SOURCE_FOLDERS = ['src', 'bin', 'test', 'bench', 'devkit', '.ci', 'assets'];
const NOT_TEXT = /\.(png|jpe?g|gif|ico|ttf|otf|woff2?|zip|gz)$/;
const NOT_SOURCE = new Set(['node_modules', 'dist', 'coverage', 'test-artifacts']);
const ROOT = new URL('../../', import.meta.url);
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(new URL(folder, ROOT), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_SOURCE.has(entry.name)) walk(path);
      } else if (!NOT_TEXT.test(entry.name)) files.push(path);
    }
  };
  for (const folder of SOURCE_FOLDERS) walk(folder);
  for (const entry of readdirSync(ROOT, { withFileTypes: true })) {
    if (entry.isFile() && !entry.name.endsWith('.md') && entry.name !== 'package-lock.json') files.push(entry.name);
  }
  return files;
}

/** Environments that walk loadConfig's branches (production, webhooks, escalation, plain). */
const ENVS: Record<string, string>[] = [
  {},
  { NODE_ENV: 'production' },
  {
    NODE_ENV: 'production',
    SERVICE_BASE_URL: 'https://wallet.example.com',
    SERVICE_API_KEY: 'k',
    SLACK_BOT_TOKEN: 'xoxb-1',
    SLACK_SIGNING_SECRET: 's',
    WALLETS: 'ops=wal_1',
    APPROVALS_CHANNEL: 'C0123ABCD',
    APPROVERS: 'U0123ABCD',
    AUDIT_WEBHOOK_URL: 'https://audit.example.com',
    ESCALATE_AFTER: '2h',
    ESCALATE_TO: 'U0123ABCD',
  },
];

/** Every environment variable loadConfig reads, observed through a recording environment. */
function settingsRead(): Set<string> {
  const seen = new Set<string>();
  for (const base of ENVS) {
    const env = new Proxy(base, {
      get(target, key) {
        if (typeof key === 'string' && SETTING.test(key)) seen.add(key);
        return Reflect.get(target, key);
      },
      has(target, key) {
        if (typeof key === 'string' && SETTING.test(key)) seen.add(key);
        return Reflect.has(target, key);
      },
    });
    for (const options of [{}, { development: true }, { receivesSlack: false }]) {
      try {
        loadConfig(env, options);
      } catch {
        // Problems are expected here: only which settings were read matters.
      }
    }
  }
  return seen;
}

/** The settings named in the first column of docs/configuration.md's table. */
function settingsDocumented(markdown: string): Set<string> {
  const rows = markdown.split('\n').map((line) => /^\| `([A-Z][A-Z0-9_]+)` \|/.exec(line)?.[1]);
  return new Set(rows.filter((name): name is string => name !== undefined));
}

/** The scopes listed between `<!-- bot-scopes -->` and `<!-- /bot-scopes -->`, one `- \`scope\`` a line. */
function scopesListed(markdown: string): string[] {
  const section = /<!-- bot-scopes -->([\s\S]*?)<!-- \/bot-scopes -->/.exec(markdown)?.[1] ?? '';
  return [...section.matchAll(/^- `([a-z:._]+)`/gm)].map((m) => m[1] as string);
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

describe('docs/configuration.md', () => {
  const documented = settingsDocumented(read('docs/configuration.md'));
  const readByCode = settingsRead();

  it('sees the settings it expects (the recording environment works)', () => {
    for (const name of ['REDIS_URL', 'SLACK_BOT_TOKEN', 'VELOCITY_LIMITS', 'IDENTITY_CREATORS', 'ESCALATE_TO'])
      expect(readByCode).toContain(name);
  });

  it('has a row for every setting loadConfig reads, and no row for one it does not', () => {
    const problems = [
      ...[...readByCode]
        .filter((name) => !documented.has(name))
        .sort()
        .map(
          (name) =>
            `${name} is read by loadConfig (src/config.ts) but not documented: add a row "| \`${name}\` | <default> | <meaning> |" to the table in docs/configuration.md.`,
        ),
      ...[...documented]
        .filter((name) => !readByCode.has(name))
        .sort()
        .map(
          (name) =>
            `${name} has a row in docs/configuration.md but loadConfig (src/config.ts) never reads it: remove the row, or read the setting.`,
        ),
    ];
    expect(problems).toEqual([]);
  });
});

describe('README.md', () => {
  const readme = read('README.md');

  it('stays a front door: at most 200 lines', () => {
    const lines = readme.split('\n').length;
    expect(lines, `README.md has ${lines} lines; move detail to a page in docs/ and link it`).toBeLessThanOrEqual(200);
  });

  it('lists exactly the bot scopes manifest.yml asks for (BOT_SCOPES)', () => {
    const listed = scopesListed(readme);
    const problems = [
      ...BOT_SCOPES.filter((s) => !listed.includes(s)).map(
        (s) =>
          `BOT_SCOPES (src/domain/slack-scopes.ts) has ${s} but README.md does not list it: add "- \`${s}\` — what it is for" between <!-- bot-scopes --> and <!-- /bot-scopes -->.`,
      ),
      ...listed
        .filter((s) => !(BOT_SCOPES as readonly string[]).includes(s))
        .map(
          (s) =>
            `README.md lists the bot scope ${s}, which BOT_SCOPES (src/domain/slack-scopes.ts) does not ask for: remove it.`,
        ),
    ];
    expect(problems).toEqual([]);
  });

  it('never states a wrong number of bot scopes, anywhere in the docs', () => {
    const pages = DOC_PAGES;
    const wrong: string[] = [];
    for (const page of pages) {
      for (const m of read(page).matchAll(/\b(\w+) bot scopes\b/gi)) {
        const word = (m[1] as string).toLowerCase();
        const n = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word);
        if (n >= 0 && n !== BOT_SCOPES.length)
          wrong.push(`${page} says "${m[0]}"; the manifest asks for ${BOT_SCOPES.length} (BOT_SCOPES).`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('docs/README.md', () => {
  it('links every page in docs/', () => {
    const index = read('docs/README.md');
    const pages = readdirSync(new URL('../../docs/', import.meta.url)).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    const unlisted = pages
      .filter((f) => !index.includes(`(${f})`))
      .map((f) => `docs/${f} is not in the docs index: add "- [title](${f}) — what it covers" to docs/README.md.`);
    expect(unlisted).toEqual([]);
  });
});

describe('paths and issue numbers in the docs', () => {
  const pages = DOC_PAGES;

  it('names only src/ paths that exist', () => {
    const gone: string[] = [];
    for (const page of pages) {
      for (const match of read(page).matchAll(/\bsrc\/[A-Za-z0-9_./-]*[A-Za-z0-9_/]/g)) {
        if (!existsSync(new URL(`../../${match[0]}`, import.meta.url))) gone.push(`${page}: ${match[0]}`);
      }
    }
    expect(gone, 'these paths are named in the docs but gone from src/: update the page').toEqual([]);
  });

  it('cites no issue numbers', () => {
    const cited = pages.flatMap((page) => ourIssueNumbers(read(page)).map((m) => `${page}: ${m}`));
    expect(cited, 'say why in words; the history lives in git and the CHANGELOG').toEqual([]);
  });
});

describe('issue numbers outside the docs', () => {
  it("finds ours and lets an outside project's stand", () => {
    const n = 21;
    expect(ourIssueNumbers(`(issue ${n}) Issue ${n}: issues ${n} issue #${n} issue ${n} §5`)).toEqual([
      `issue ${n}`,
      `Issue ${n}`,
      `issues ${n}`,
      `issue #${n}`,
      `issue ${n}`,
    ]);
    expect(
      ourIssueNumbers(
        `bullmq issue #${n}, slackapi/bolt-js issue ${n}, ioredis issue ${n}, https://github.com/taskforcesh/bullmq/issues/${n}`,
      ),
    ).toEqual([]);
  });

  it('no comment or test name in the code, tests, bench, devkit or configuration cites our issue numbers', () => {
    const files = sourceFiles();
    expect(files).toContain(join('test', 'unit', 'docs.test.ts'));
    const cited = files.flatMap((file) => ourIssueNumbers(read(file)).map((m) => `${file}: ${m}`));
    expect(cited, 'say why in words (the spec, an outside fact); the history lives in git and the CHANGELOG').toEqual(
      [],
    );
  });
});
