/**
 * One Rampart web process serving the HTTP API, for crash tests: env comes from
 * argv[2] (JSON). With KILL_AFTER_CREATE=1 in it, the process SIGKILLs itself right after a
 * request's create script succeeded, before any answer: "killed between create and answer".
 * Prints `ready <api port>` once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiDeps } from '../../src/adapters/api/deps.js';
import { createApiHandler } from '../../src/adapters/api/handler.js';
import { createApp } from '../../src/app/index.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startRampart } from '../../src/rampart.js';
import type { RequestStore } from '../../src/store/requests.js';

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const killAfterCreate = env.KILL_AFTER_CREATE === '1';

function dieAfterCreate(store: RequestStore): RequestStore {
  const create = store.create.bind(store);
  store.create = async (...args) => {
    const created = await create(...args);
    if (created.outcome === 'created') process.kill(process.pid, 'SIGKILL');
    return created;
  };
  return store;
}

const config = loadConfig({ ...env, ROLE: 'web' });
const running = await startRampart(config, createLogger({ level: 'silent' }), {
  ...(killAfterCreate ? { decorate: { store: dieAfterCreate } } : {}),
});
const handle = createApiHandler(apiDeps(createApp(running.deps), running.deps));
const server = createServer((req, res) => {
  void handle(req, res);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void running.close().then(() => process.exit(0));
});
