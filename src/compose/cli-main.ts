/**
 * Entry point of the `rampart` command (bin/rampart.js): the process's streams and what the
 * composition root opens for a command (compose/cli-role.ts) into the CLI's run().
 */
import { run } from '../adapters/cli/run.js';
import { openCliRole } from './cli-role.js';

// `rampart requests | head -1` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

process.exitCode = await run(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
  openCliRole,
);
