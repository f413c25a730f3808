/**
 * Every Lua script lives in a .lua file under src/store/lua/ with a header naming its KEYS, its
 * ARGV and what it returns (as BullMQ keeps its commands), shared functions in includes/ pulled in
 * by `-- @include "name"`. This reads the files as they ship: no Redis.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INCLUDE_LINE, luaInclude, luaScript } from '../../../src/store/lua-scripts.js';
import { NO_SUBJECT, TOTAL_FIELD } from '../../../src/store/velocity-lua.js';

const FOLDER = join(import.meta.dirname, '../../../src/store/lua');
const SRC = join(import.meta.dirname, '../../../src');
const scripts = readdirSync(FOLDER).filter((f) => f.endsWith('.lua'));
const includes = readdirSync(join(FOLDER, 'includes')).filter((f) => f.endsWith('.lua'));
const text = (path: string) => readFileSync(join(FOLDER, path), 'utf8');
const header = (lua: string) => /^--\[\[\n([\s\S]*?)\n\]\]\n/.exec(lua)?.[1];
const names = (lua: string) => [...lua.matchAll(new RegExp(INCLUDE_LINE.source, 'gm'))].map((m) => m[1]);

describe('the Lua files', () => {
  it('are many, and every one opens with a header naming its KEYS, ARGV and what it returns', () => {
    expect(scripts.length).toBeGreaterThan(20);
    expect(includes.length).toBeGreaterThan(5);
    for (const file of [...scripts, ...includes.map((f) => `includes/${f}`)]) {
      const h = header(text(file));
      expect(h, `${file} has no --[[ … ]] header`).toBeDefined();
      expect(h, file).toMatch(/\bKEYS\b/);
      expect(h, file).toMatch(/\bARGV\b/);
      expect(h, file).toMatch(/\bReturns\b/);
    }
  });

  it('include only files that exist, and every script resolves with each include once', () => {
    for (const file of [...scripts, ...includes.map((f) => `includes/${f}`)])
      for (const name of names(text(file))) expect(includes, `${file} includes "${name}"`).toContain(`${name}.lua`);
    for (const file of scripts) {
      const lua = luaScript(file.slice(0, -4));
      expect(names(lua), file).toEqual([]);
      // A `local function` defined twice would shadow the first: each include is pulled in once.
      const defined = [...lua.matchAll(/^local function (\w+)/gm)].map((m) => m[1]);
      expect(new Set(defined).size, file).toBe(defined.length);
    }
  });

  it('the execution scripts read the stored shape, never the id', () => {
    for (const name of ['vote', 'start', 'finish', 'cancel-queued']) {
      const lua = luaScript(name);
      // Through shapeOf, given the field when the script's one read of the approval has it.
      expect(lua, name).toMatch(/shapeOf\(KEYS\[1\][,)]/);
      expect(lua, name).not.toMatch(/string\.sub\(ARGV\[\d+\], 1, 2\)|'B-'|'\.1'/);
    }
  });

  it('the velocity include names a request that moves no money and the ledger total as the app does', () => {
    expect(luaInclude('velocity')).toContain(`field == '${NO_SUBJECT}'`);
    const fields = luaInclude('velocity').match(/'#\w+'/g) ?? [];
    expect(fields.length).toBeGreaterThan(2);
    expect(new Set(fields)).toEqual(new Set([`'${TOTAL_FIELD}'`, "'#count'"]));
  });

  it('the vote and the headroom people see read each window from the side one function picks', () => {
    expect(text('includes/ledger.lua')).toMatch(/^local function windowSide\(/m);
    for (const file of ['includes/velocity.lua', 'velocity-usage.lua']) {
      expect(text(file), file).toContain('windowSide(ledger, count, ');
      expect(text(file), file).not.toMatch(/'ZCOUNT'|'ZRANGEBYSCORE', ledger, '\(' \.\. edge/);
    }
  });

  it('ship with the build: npm run build copies the folder beside the compiled loader', () => {
    // The loader reads ./lua/ relative to its own module: dist/store/lua-scripts.js reads dist/store/lua/.
    const pkg = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.build).toContain("cpSync('src/store/lua', 'dist/store/lua', { recursive: true })");
  });

  it('no TypeScript under src/ holds Lua any more', () => {
    const ts = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? ts(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const holding = ts(SRC).filter((f) => readFileSync(f, 'utf8').includes('redis.call('));
    expect(holding).toEqual([]);
  });
});
