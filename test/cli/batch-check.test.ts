/**
 * `rampart batch check` against the built-in sandbox and a real Redis under a unique
 * prefix: the same sentences as /batch, exit 1 with every problem, exit 0 with a summary.
 */

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from '../../src/store/registry.js';
import { buildBeneficiary } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { lines as allLines, cli } from './support.js';

// The built-in sandbox announces itself on stderr; the checks' own lines follow it.
const lines = (text: string) => allLines(text).filter((l) => !l.startsWith('note: SERVICE_BASE_URL'));

const prefix = `test-cli-batch-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix };
const EVM_A = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const EVM_B = '0x52908400098527886E0F7030069857D2E4169EE7';
let dir: string;

async function csv(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-batch-'));
  const redis = new Redis(REDIS_URL);
  await new Registry(redis, prefix).addBeneficiary(buildBeneficiary('ben_1', 'Acme payroll', { createdAt: 1 }));
  await redis.quit();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await deleteKeys(prefix);
});

describe('rampart batch check', () => {
  it('prints a summary and exits 0 for a good transfers file', async () => {
    const file = await csv('good.csv', `receiver,amount,reference\n${EVM_A},250,inv 1\n${EVM_B},1000.5,inv 2\n`);
    const r = await cli(
      ['batch', 'check', file, '--kind', 'transfers', '--wallet', 'ops', '--asset', 'base:usdc'],
      env,
    );
    expect(r.code).toBe(0);
    expect(lines(r.stdout).slice(0, 3)).toEqual([
      'good.csv passes every check: 2 transfers from ops in base:usdc; nothing was created or sent.',
      '  total 1,250.50 USDC; largest row 3: 1,000.50 USDC',
      '  available now 120,000.50 USDC; after this batch 118,750.00 USDC',
    ]);
  });

  it('resolves an offramp label and answers JSON with --json', async () => {
    const file = await csv('off.csv', 'beneficiary,amount\nacme payroll,10\n');
    const r = await cli(
      ['batch', 'check', file, '--kind', 'offramps', '--wallet', 'ops', '--asset', 'base:usdc', '--json'],
      env,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 1, total: '10.00', kind: 'offramps' });
  });

  it('lists every problem by row with the same sentences and exits 1', async () => {
    const file = await csv('bad.csv', `receiver,amount\n${EVM_A},"12,50"\n${EVM_B},=1+1\n`);
    const r = await cli(
      ['batch', 'check', file, '--kind', 'transfers', '--wallet', 'ops', '--asset', 'base:usdc'],
      env,
    );
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      'Row 2 amount: "12,50" is not an amount: a comma may only group thousands (1,250.50); use a point for decimals, e.g. 12.50.',
      'Row 3 amount: "=1+1" starts like a formula or a negative number; write a positive amount such as 250.',
      'rampart: 2 problems in bad.csv; fix every one and check again.',
    ]);
  });

  it('refuses a total above what the wallet holds, and a bad --kind as a usage error', async () => {
    const file = await csv('big.csv', `receiver,amount\n${EVM_A},100000\n${EVM_B},20001\n`);
    const r = await cli(
      ['batch', 'check', file, '--kind', 'transfers', '--wallet', 'ops', '--asset', 'base:usdc'],
      env,
    );
    expect(r.code).toBe(1);
    expect(lines(r.stderr)[0]).toBe(
      'The total of 120,001.00 USDC is too much: Only 120,000.50 USDC is available on ops.',
    );
    const u = await cli(['batch', 'check', file, '--kind', 'payouts', '--wallet', 'ops', '--asset', 'base:usdc'], env);
    expect(u.code).toBe(2);
    expect(lines(u.stderr)[0]).toBe('rampart: --kind "payouts" is not transfers or offramps');
  });
});
