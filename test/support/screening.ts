/** Loads a plain sanctions list into a harness's store, as `rampart screening load --accept-removals` would. */
import { expect } from 'vitest';
import { readPlainList } from '../../src/domain/screening-list.js';
import type { Harness } from './harness.js';

export async function loadScreeningList(h: Harness, published: string, listed: readonly string[]): Promise<void> {
  const text = `# name: OFAC SDN\n# published: ${published}\n${listed.join('\n')}\n`;
  const read = readPlainList(Buffer.from(text), published);
  if (!read.ok) throw new Error(read.problem);
  const r = await h.rampart.deps.store.screening.load(read.list, {
    by: 'test',
    source: 'test',
    now: Date.now(),
    acceptRemovals: true,
  });
  expect(['loaded', 'confirmed']).toContain(r.kind);
}
