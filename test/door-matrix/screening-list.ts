/**
 * The screening rows' setup: a sanctions list holding the addresses a cell pays, loaded for the
 * cell alone (cells run one after another), then replaced by an empty list of the same date
 * with the removals accepted, so no other cell meets it.
 */
import type { Harness } from '../support/harness.js';
import { loadScreeningList } from '../support/screening.js';

const PUBLISHED = '2026-11-27';

export async function listedWhile(h: Harness, listed: readonly string[], work: () => Promise<string>): Promise<string> {
  await loadScreeningList(h, PUBLISHED, listed);
  try {
    return await work();
  } finally {
    await loadScreeningList(h, PUBLISHED, []);
  }
}
