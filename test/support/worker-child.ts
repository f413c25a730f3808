/**
 * A Rampart worker in its own process, so a test can kill it with SIGKILL mid-call
 * ("worker process killed after the request became executing"). Env comes from argv[2] (JSON).
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startRampart } from '../../src/rampart.js';

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
/** argv[3]: worker options over the defaults below (`{"takesWakes": false}`: no wake runner). */
const options = JSON.parse(process.argv[3] ?? '{}') as { takesWakes?: boolean };
const running = await startRampart(loadConfig({ ...env, ROLE: 'worker' }), createLogger({ level: 'silent' }), {
  worker: {
    lockDurationMs: 1000,
    stalledIntervalMs: 500,
    reconcileEveryMs: 500,
    name: 'child-worker',
    freezeRecheckMs: 300,
    ...options,
  },
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
