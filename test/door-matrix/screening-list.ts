/**
 * The screening rows' setup: a sanctions list holding the addresses a cell pays, loaded for the
 * cell alone (cells run one after another), then replaced by an empty list of the same date
 * with the removals accepted, so no other cell meets it.
 */
import { expect } from 'vitest';
import { readPlainList } from '../../src/domain/screening-list.js';
import type { Harness } from '../support/harness.js';

const PUBLISHED = '2026-11-27';

async function load(h: Harness, listed: readonly string[]): Promise<void> {
  const read = readPlainList(
    Buffer.from(`# name: OFAC SDN\n# published: ${PUBLISHED}\n${listed.join('\n')}\n`),
    PUBLISHED,
  );
  if (!read.ok) throw new Error(read.problem);
  const r = await h.rampart.deps.store.screening.load(read.list, {
    by: 'matrix',
    source: 'matrix',
    now: Date.now(),
    acceptRemovals: true,
  });
  expect(['loaded', 'confirmed']).toContain(r.kind);
}

export async function listedWhile(h: Harness, listed: readonly string[], work: () => Promise<string>): Promise<string> {
  await load(h, listed);
  try {
    return await work();
  } finally {
    await load(h, []);
  }
}
