/**
 * The approval hash's codec for the sealed call: the code says `sealed`, the hash field is
 * `frozen`, its name since the first format. Records already in Redis keep that field and every
 * Lua script reads it by that name, so only this file knows it.
 */
import { redactSealed } from '../domain/redact.js';
import type { SealedRequest } from '../domain/request.js';

/** The approval hash field holding the sealed call as JSON. */
export const SEALED_FIELD = 'frozen';

export const encodeSealed = (sealed: SealedRequest): string => JSON.stringify(sealed);

export const decodeSealed = (raw: string): SealedRequest => JSON.parse(raw) as SealedRequest;

/** The stored sealed call, or undefined when the field is missing (no such approval). */
export const readSealed = (raw: string | null | undefined): SealedRequest | undefined =>
  raw ? decodeSealed(raw) : undefined;

/** The hash fields that store `sealed` (a masked copy on a final move). */
export const sealedFields = (sealed: SealedRequest): Record<string, string> => ({
  [SEALED_FIELD]: encodeSealed(sealed),
});

/**
 * A final move's masked copy (domain/redact.ts) as the scripts take it: the approval's hash
 * fields, execution 1's masked call as JSON, and that call as execution 1's fields in JSON.
 * Undefined when there is nothing to mask (no sealed call, or already masked).
 */
export function maskedFields(
  sealed: SealedRequest | undefined,
  at: number,
): { approval: Record<string, string>; call: string; first: string } | undefined {
  if (!sealed || sealed.redacted) return undefined;
  const masked = redactSealed(sealed, at);
  const call = JSON.stringify(masked.call);
  return { approval: sealedFields(masked), call, first: JSON.stringify({ call }) };
}
