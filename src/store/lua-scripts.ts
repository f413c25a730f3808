/**
 * The Lua scripts, read from `store/lua/*.lua` once when this module loads (never per call),
 * as BullMQ keeps its commands: each file opens with a header naming its KEYS, ARGV and what it
 * returns, and shared functions live in `store/lua/includes/*.lua`, pulled in by a line
 * `-- @include "name"`. Includes are resolved here, depth first, each at most once per script
 * (a Lua `local function` defined twice would shadow the first), so a script's text is fixed at
 * start-up and its SHA1 (store/run-script.ts) never changes while the process runs.
 * `npm run build` copies the folder next to the compiled module (dist/store/lua).
 */
import { readFileSync } from 'node:fs';

const FOLDER = new URL('./lua/', import.meta.url);
/** One include per line, the whole line: `-- @include "batch"` (a name, no path, no extension). */
export const INCLUDE_LINE = /^--\s*@include\s+"([a-z0-9-]+)"\s*$/gm;

/** The `--[[ … ]]` block a file opens with. */
const HEADER = /^--\[\[[\s\S]*?\]\]\n/;

const files = new Map<string, string>();

function read(path: string): string {
  let text = files.get(path);
  if (text === undefined) {
    text = readFileSync(new URL(path, FOLDER), 'utf8');
    files.set(path, text);
  }
  return text;
}

function resolve(path: string, seen: Set<string>, stack: readonly string[]): string {
  if (stack.includes(path)) throw new Error(`Lua include cycle: ${[...stack, path].join(' → ')}`);
  return read(path).replace(new RegExp(INCLUDE_LINE.source, 'gm'), (_, name: string) => {
    const include = `includes/${name}.lua`;
    if (seen.has(include)) return `-- (${name} included above)`;
    seen.add(include);
    return resolve(include, seen, [...stack, path])
      .replace(HEADER, '')
      .trimEnd();
  });
}

/**
 * The script `store/lua/<name>.lua` with its includes resolved. Headers stay in the files: Redis
 * gets the code alone, no longer than the scripts were before they had headers.
 */
export function luaScript(name: string): string {
  return resolve(`${name}.lua`, new Set(), []).replace(HEADER, '');
}

/** An include on its own (tests compose it into a probe script). */
export function luaInclude(name: string): string {
  return resolve(`includes/${name}.lua`, new Set([`includes/${name}.lua`]), []);
}
