/**
 * A modal's private_metadata, written and read in one place. Slack keeps at
 * most 3,000 characters; a cut string is invalid JSON and the form could never be submitted, so
 * writing picks the first candidate that fits whole, and reading never throws.
 */
import type { z } from 'zod';

/** Slack's limit on private_metadata (https://docs.slack.dev/reference/views/modal-views). */
export const METADATA_LIMIT = 3000;

/** What a person is told when a form's hidden data cannot be read. */
export const METADATA_PROBLEM =
  'This form could not be read (it is from an older version of Rampart or was damaged); close it and start again.';

/**
 * JSON of the first candidate that fits the limit, most complete first; the last one must be
 * small by construction (ids only). UTF-16 length ≥ Slack's character count, so it is safe.
 */
export function encodeMetadata(...candidates: readonly [unknown, ...unknown[]]): string {
  for (const candidate of candidates) {
    const text = JSON.stringify(candidate);
    if (text.length <= METADATA_LIMIT) return text;
  }
  // Unreachable with the builders' candidates; an empty object still parses.
  return '{}';
}

export type MetadataRead<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Parses and validates; a missing value is read as `{}` so all-optional schemas accept it. */
export function readMetadata<T>(schema: z.ZodType<T>, raw: string | undefined): MetadataRead<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw === undefined || raw === '' ? '{}' : raw);
  } catch {
    return { ok: false, problem: METADATA_PROBLEM };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: METADATA_PROBLEM };
}
