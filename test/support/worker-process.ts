/** Rampart's worker in a process of its own, for tests that kill it mid-flight. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** Starts test/support/worker-child.ts on `env`; the caller keeps the child to kill it. */
export const spawnWorker = (env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-child.ts', JSON.stringify(env)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });

/** Resolves once the child worker says it is running (its first line on stdout). */
export const workerReady = async (child: ChildProcess): Promise<void> => {
  await once(child.stdout as NodeJS.ReadableStream, 'data');
};
