/**
 * The worker's refresh from SCREENING_LIST_URL against a real loopback HTTP server and a real
 * Redis: the first fetch loads the list, the same bytes again only confirm it (its age restarts),
 * a server error keeps the list loaded before, and a period already confirmed is not due again.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { screeningRefresh } from '../../src/app/screening-refresh.js';
import { fetchScreeningList } from '../../src/compose/screening-fetch.js';
import { createLogger } from '../../src/log.js';
import { RequestStore } from '../../src/store/requests.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const SDN = readFileSync(new URL('../fixtures/screening/sdn.xml', import.meta.url));
const prefix = `test-screening-refresh-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const store = new RequestStore(redis, prefix);
let status = 200;
const server = createServer((_req, res) => {
  res.statusCode = status;
  res.end(status === 200 ? SDN : 'down');
});
let url = '';
let clock = 10 * 86_400_000 + 1_000;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sdn.xml`;
});
afterAll(async () => {
  server.close();
  await redis.quit();
  await deleteKeys(prefix);
});

const refresher = () =>
  screeningRefresh({
    store,
    log: createLogger({ level: 'silent' }),
    now: () => clock,
    listUrl: url,
    refreshMs: 86_400_000,
    fetchList: fetchScreeningList,
  });

it('loads, confirms, keeps the list through a failed fetch, and is due once per period', async () => {
  const r = refresher();
  expect(await r.dueNow()).toBe(10 * 86_400_000);
  expect(await r.refresh()).toEqual({ status: 'done', result: 'loaded' });
  expect((await store.screening.current())?.published).toBe('2026-11-27');
  expect(await r.dueNow()).toBeUndefined();
  expect(r.next()).toEqual({ at: 11 * 86_400_000, delayMs: 86_400_000 - 1_000 });
  clock += 86_400_000;
  expect(await r.refresh()).toEqual({ status: 'done', result: 'confirmed' });
  expect((await store.screening.current())?.confirmedAt).toBe(clock);
  status = 500;
  clock += 86_400_000;
  expect(await r.refresh()).toEqual({ status: 'done', result: 'unfetched' });
  expect((await store.screening.current())?.count).toBe(7);
  expect(await r.dueNow()).toBe(12 * 86_400_000);
});
