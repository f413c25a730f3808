/**
 * One Rampart process of any role, for many processes on one Redis: env comes from argv[2] (JSON),
 * ROLE included. Prints `ready <port>` once listening; SIGKILL is what a test uses to crash it.
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startRampart } from '../../src/rampart.js';

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const running = await startRampart(loadConfig(env), createLogger({ level: 'silent' }), {
  // Locks long enough that a busy machine does not mistake a slow job for a stalled one.
  worker: { lockDurationMs: 5000, stalledIntervalMs: 1000, reconcileEveryMs: 500, name: `child-${process.pid}` },
});
process.stdout.write(`ready ${running.port ?? 0}\n`);
process.on('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
