/**
 * The new user's password: from a hidden prompt on a terminal (typed twice), or the first line
 * of piped stdin. Never from arguments or the environment, where `ps`, shell history and child
 * processes would see it.
 */
import { createInterface as createLineReader } from 'node:readline';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { CliIo } from './io.js';
import { CliError } from './problems.js';

export async function readPassword(io: CliIo): Promise<string> {
  if (io.stdin.isTTY) {
    const first = await promptHidden(io, 'Password for the new user: ');
    if (first === '') throw new CliError('The password must not be empty; nothing was created.');
    const again = await promptHidden(io, 'Type it again: ');
    if (again !== first) throw new CliError('The two passwords differ; nothing was created.');
    return first;
  }
  const line = await firstLine(io.stdin);
  if (line === undefined || line === '') {
    throw new CliError('No password on stdin: pipe it as the first line, or run in a terminal to be asked for it.');
  }
  return line;
}

/** Readline echoes keystrokes through `output`; this output shows the prompt and mutes the rest. */
async function promptHidden(io: CliIo, prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) io.stderr.write(chunk.toString());
      done();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  const cancel = new AbortController();
  rl.on('SIGINT', () => cancel.abort());
  try {
    const answer = rl.question(prompt, { signal: cancel.signal });
    muted = true; // the prompt is written synchronously by question(); what follows is typing
    return await answer;
  } catch {
    throw new CliError('Cancelled; nothing was created.');
  } finally {
    muted = false;
    io.stderr.write('\n');
    rl.close();
  }
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string | undefined> {
  const rl = createLineReader({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  try {
    for await (const line of rl) return line;
    return undefined;
  } finally {
    rl.close();
  }
}
