/** Runs the CLI in-process with captured streams, as a terminal-less operator would. */
import { Readable } from 'node:stream';
import { run } from '../../src/adapters/cli/run.js';
import { openCliRole } from '../../src/compose/cli-role.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  stdin = '',
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Readable.from(stdin === '' ? [] : [stdin]),
  };
  const code = await run(argv, io, openCliRole, env);
  return { code, stdout, stderr };
}

/** stderr of a failure: exactly one line. */
export const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
