/**
 * What a final request keeps of personal data (DESIGN invariant 6): full
 * account numbers, IBANs, BVNs and dates of birth are needed only until the call is made or
 * the request ends, so the stored request keeps them masked from then on. The short hash shown
 * on the card stays, and the full SHA-256 of the original call is kept beside it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { maskTail } from './personal-data.js';
import { canonicalJson, type SealedRequest } from './request.js';

/** Field names that hold a full number or a date of birth, wherever they appear. */
const SENSITIVE = new Set([
  'account_number',
  'iban',
  'clabe_number',
  'pix_code',
  'bvn',
  'dob',
  'date_of_birth',
  'accountNumber',
  'dateOfBirth',
]);
const DATE_FIELDS = new Set(['dob', 'date_of_birth', 'dateOfBirth']);

function maskDeep(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => maskDeep(v));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v, k)]));
  if (!SENSITIVE.has(key) || (typeof value !== 'string' && typeof value !== 'number')) return value;
  const text = String(value);
  // Already masked (a second final transition, e.g. unknown → succeeded): leave it.
  if (text.includes('•')) return text;
  return DATE_FIELDS.has(key) ? '••-••-••••' : maskTail(text);
}

export const callSha256 = (call: SealedRequest['call']): string => bytesToHex(sha256(utf8ToBytes(canonicalJson(call))));

/** The request as kept once final: idempotent, so a second final transition changes nothing. */
export function redactSealed(sealed: SealedRequest, at: number): SealedRequest {
  if (sealed.redacted) return sealed;
  return {
    ...sealed,
    call: maskDeep(sealed.call) as SealedRequest['call'],
    display: maskDeep(sealed.display) as SealedRequest['display'],
    redacted: { at, callSha256: callSha256(sealed.call) },
  };
}
