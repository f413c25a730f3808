/**
 * One small error hierarchy with stable codes. Callers branch on `code` or `instanceof`,
 * never on message text.
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'INPUT_INVALID'
  | 'SERVICE_REJECTED'
  | 'SERVICE_UNAVAILABLE'
  | 'SERVICE_TIMEOUT'
  | 'SERVICE_BAD_RESPONSE'
  | 'STATE_CONFLICT'
  | 'REDIS_UNAVAILABLE'
  | 'NOT_AUTHORISED';

export class RampartError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Bad user or request input; `field` names the offending field (dot path). */
export class InputError extends RampartError {
  readonly field: string | undefined;
  constructor(message: string, field?: string, options?: { cause?: unknown }) {
    super('INPUT_INVALID', message, options);
    this.field = field;
  }
}

export class ConfigError extends RampartError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      'CONFIG_INVALID',
      `Rampart cannot start, the configuration has ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

export class StateConflictError extends RampartError {
  constructor(message: string) {
    super('STATE_CONFLICT', message);
  }
}

export const isRampartError = (e: unknown): e is RampartError => e instanceof RampartError;
