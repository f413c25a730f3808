/** Every status emoji Rampart writes is drawn in the workbench, none as `:code:`. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMOJI } from '../../../devkit/workbench/render/emoji.js';

/** The .ts files under a folder of this repository. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the workbench emoji', () => {
  it('has a character for every shortcode the Slack messages and cards use', () => {
    const used = new Set<string>();
    for (const file of [...sources('src/adapters/slack'), ...sources('src/app')])
      for (const m of readFileSync(file, 'utf8').matchAll(/[`'\s(]:([a-z][a-z0-9_+-]*):/g)) used.add(m[1] ?? '');
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((code) => !EMOJI[code]).sort()).toEqual([]);
  });
});
