/**
 * Open-request caps: how many open requests (pending, approved or executing; a batch counts as
 * one; a series only while pending) one requester (MAX_OPEN_PER_REQUESTER) and one API key (--max-open) may have at once. The
 * store's create script applies this rule and claims the place in the same step as the create
 * (store/lua/create.lua), so requests sent at the same moment cannot all pass a count read
 * before any of them was stored.
 */
import type { ApiOrigin } from './api-key.js';

/**
 * Whether an open approval in `state` takes a place under the caps. A series counts once while
 * pending; once live it has had its approval, and each run is an approval of its own that the
 * caps never count (the create script applies this, reading each member's state).
 */
export const holdsOpenPlace = (state: string): boolean => state !== 'live';

/** The caps a create is held to: the requester's and, for a request made with a key, the key's. */
export interface OpenCaps {
  requester: number;
  apiKey?: number;
}

/** A request made with an API key: the key as the card names it, and its --max-open. */
export interface ApiVia extends ApiOrigin {
  maxOpen: number;
}

export type OpenCapHolder = 'requester' | 'api_key';

export type OpenCapOutcome =
  | { ok: true }
  | { ok: false; code: 'too_many_open'; holder: OpenCapHolder; open: number; message: string };

export const tooManyOpen = (open: number): string =>
  `You already have ${open} open requests (pending, approved or executing); wait until some finish, or cancel one, then submit again.`;

const keyTooManyOpen = (keyName: string, open: number): string =>
  `API key ${keyName} already has ${open} open ${open === 1 ? 'request' : 'requests'}, its --max-open; wait until some are decided or cancelled, then send it again.`;

/** The refusal for a holder found at its cap with `open` requests (the create script's answer). */
export function openCapRefusal(
  holder: OpenCapHolder,
  open: number,
  keyName = '',
): Extract<OpenCapOutcome, { ok: false }> {
  const message = holder === 'requester' ? tooManyOpen(open) : keyTooManyOpen(keyName, open);
  return { ok: false, code: 'too_many_open', holder, open, message };
}

/**
 * One more open request is allowed while each holder has fewer than its cap; the requester's
 * cap is looked at first. A cap that is not a whole number of at least 1 allows nothing.
 */
export function openCapOutcome(
  open: { requester: number; apiKey?: number },
  caps: OpenCaps,
  keyName = '',
): OpenCapOutcome {
  const under = (n: number, cap: number) => Number.isInteger(cap) && cap >= 1 && n < cap;
  if (!under(open.requester, caps.requester)) return openCapRefusal('requester', open.requester);
  if (caps.apiKey !== undefined && !under(open.apiKey ?? 0, caps.apiKey))
    return openCapRefusal('api_key', open.apiKey ?? 0, keyName);
  return { ok: true };
}
