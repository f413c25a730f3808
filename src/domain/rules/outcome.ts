/**
 * What every rule answers: allowed, or refused with a stable code that each door maps to its own
 * words (a modal error, a private message, a problem+json type, a CLI exit). Pure.
 */
export type RuleOutcome<Code extends string, Extra extends object = object> =
  | { ok: true }
  | ({ ok: false; code: Code } & Extra);

export const ALLOW = { ok: true } as const;
