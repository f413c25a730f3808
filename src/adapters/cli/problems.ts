/**
 * The two ways a command fails on purpose: bad arguments (exit 2, with the usage line of the
 * command) and a problem found while running (exit 1, one sentence).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The usage line of the command that was meant; undefined for the whole program. */
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** A run-time problem with its sentence already written for the operator. */
export class CliError extends Error {
  override readonly name = 'CliError';
}
