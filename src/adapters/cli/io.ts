/** The process's streams, injected so tests can run commands in-process. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Only `user create` reads it: the password, at a hidden prompt or as its first line. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
