/**
 * `rampart screening load` and `status` against a real Redis: OFAC's sdn.xml loads; an older list
 * and a list with fewer addresses are refused (the list before stays), the latter accepted with
 * --accept-removals; a file that is no list says why in one line.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-screening-${randomUUID().slice(0, 8)}`;
afterAll(() => deleteKeys(prefix));
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix };
const SDN = new URL('../fixtures/screening/sdn.xml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rampart-screening-'));
const plain = (name: string, published: string, addresses: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `# name: OFAC SDN\n# published: ${published}\n${addresses.join('\n')}\n`);
  return path;
};
const evm = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);

it('loads sdn.xml, says so, and status names the list, its hash and count', async () => {
  const r = await cli(['screening', 'load', SDN], env);
  expect(r).toMatchObject({ code: 0, stdout: 'Loaded the OFAC SDN list of 2026-11-27 (7 addresses).\n' });
  const s = await cli(['screening', 'status'], env);
  expect(lines(s.stdout)[0]).toBe('SCREENING=on');
  expect(lines(s.stdout)[1]).toMatch(/^OFAC SDN list of 2026-11-27: 7 addresses, sha256 [0-9a-f]{64}$/);
});

it('refuses an older list and keeps the one loaded', async () => {
  const r = await cli(['screening', 'load', plain('old.txt', '2026-11-01', evm(20))], env);
  expect(r.code).toBe(1);
  expect(lines(r.stderr)).toEqual([
    'rampart: The OFAC SDN list of 2026-11-01 (20 addresses) is older than the list loaded (published 2026-11-27); load the newest list. The list loaded before stays in force.',
  ]);
  expect((await cli(['screening', 'status'], env)).stdout).toContain('OFAC SDN list of 2026-11-27: 7 addresses');
});

it('refuses a list with 10 fewer addresses unless --accept-removals', async () => {
  expect(
    (await cli(['screening', 'load', plain('full.txt', '2026-11-28', evm(30)), '--accept-removals'], env)).stdout,
  ).toContain('Loaded the OFAC SDN list of 2026-11-28 (30 addresses); 7 address(es) removed');
  const fewer = plain('fewer.txt', '2026-11-29', evm(20));
  const refused = await cli(['screening', 'load', fewer], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('drops 10 address(es) the loaded list holds');
  expect(refused.stderr).toContain('load it again with --accept-removals');
  const accepted = await cli(['screening', 'load', fewer, '--accept-removals'], env);
  expect(accepted.stdout).toBe(
    'Loaded the OFAC SDN list of 2026-11-29 (20 addresses); 10 address(es) removed, listed in the screening history.\n',
  );
});

it('says in one line why a file is not a list', async () => {
  const r = await cli(['screening', 'load', plain('bad.txt', '2026-11-30', ['bc1qnotevm'])], env);
  expect(r.code).toBe(1);
  expect(lines(r.stderr)[0]).toBe(
    'rampart: Line 3: "bc1qnotevm" is not an EVM address, so it needs its chain: write "bc1qnotevm,solana" (or its ticker). The list loaded before stays in force.',
  );
});
