/**
 * The approval hash's codec for the sealed call: the code says `sealed`, the hash field is
 * `frozen`, its name since the first format. Records already in Redis keep that field and every
 * Lua script reads it by that name, so only this file knows it.
 */
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
