/**
 * The service read commands in-process against the sandbox over real HTTP: tables, --json,
 * masking of personal data, and the exit codes 1 (one line) and 2 (with the usage line).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ServiceClient } from '../../src/service/client.js';
import { cli, lines } from './support.js';

const KEY = 'cli-test-key';
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY, bearerToken: 'cli-test-bearer' });
  env = { NODE_ENV: 'test', SERVICE_BASE_URL: sandbox.url, SERVICE_API_KEY: KEY };
});
afterAll(async () => {
  await sandbox.close();
});

describe('rampart balances', () => {
  it('prints an aligned table with thousands separators at each asset’s decimals', async () => {
    const r = await cli(['balances', 'ops'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatchInlineSnapshot(`
      "Wallet ops (wal_ops_7f3a)
      Asset  Chain            ID                   Balance      Available        Debt
      USDC   Base             base:usdc         125,400.50     120,000.50        0.00
      USDC   Solana           solana:usdc        48,250.00      48,250.00        0.00
      USDT   Ethereum         ethereum:usdt      30,000.00      29,500.25        0.00
      cNGN   BNB Smart Chain  bsc:cngn       15,000,000.00  14,000,000.00  250,000.00
      "
    `);
  });

  it('prints the service’s entries as JSON with --json, and takes a wallet id as well as an alias', async () => {
    const r = await cli(['balances', 'wal_treasury_91c2', '--json'], env);
    expect(r.code).toBe(0);
    const entries = JSON.parse(r.stdout) as { id: string; available: number }[];
    expect(entries.map((e) => e.id)).toEqual(['ethereum:usdc', 'arbitrum:usdt', 'base:cngn']);
    expect(entries[0]?.available).toBe(2_400_000);
  });

  it('exits 1 with one line naming the configured wallets for an unknown wallet', async () => {
    const r = await cli(['balances', 'opps'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual([
      'rampart: "opps" is neither a configured wallet (ops, treasury, payroll, legacy) nor a wallet id the service knows; check the spelling.',
    ]);
  });
});

describe('rampart wallet', () => {
  it('shows state, addresses and capabilities; --json is the service’s wallet', async () => {
    const table = await cli(['wallet', 'legacy'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Wallet       legacy (wal_legacy_0b19)');
    expect(table.stdout).toContain('Active       no');
    expect(table.stdout).toContain('Offramp      no');
    const json = await cli(['--json', 'wallet', 'ops'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'wal_ops_7f3a', is_active: true, transfer: true });
  });
});

describe('rampart rate', () => {
  it('defaults to NGN and prints the rate with separators, or JSON', async () => {
    expect((await cli(['rate'], env)).stdout).toBe('Onramp rate  1,532.75 NGN\n');
    const json = await cli(['rate', 'ngn', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ currency: 'NGN', rate: 1532.75 });
  });

  it('exits 2 for a currency the service does not quote', async () => {
    const r = await cli(['rate', 'USD'], env);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'rampart: "USD" is not a currency the service quotes; the only one is NGN',
      'usage: rampart rate [currency] [--json]',
    ]);
  });
});

describe('rampart lookup', () => {
  it('names the holder and masks the account number, in the table and in JSON', async () => {
    const table = await cli(['lookup', '058', '0123456789'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Account name    ADAEZE OKAFOR');
    expect(table.stdout).toContain('Account number  ••••6789');
    const json = await cli(['lookup', '058', '0123456789', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({
      bank_code: '058',
      bank_name: 'Guaranty Trust Bank',
      account_number: '••••6789',
      account_name: 'ADAEZE OKAFOR',
    });
    expect(table.stdout + json.stdout).not.toContain('0123456789');
  });

  it('exits 2 with the usage line for a malformed account number, without asking the service', async () => {
    const before = sandbox.state.received.length;
    const r = await cli(['lookup', '058', '12345'], env);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'rampart: a Nigerian account number (NUBAN) is exactly 10 digits',
      'usage: rampart lookup <bank_code> <account_number> [--json]',
    ]);
    expect(sandbox.state.received.length).toBe(before);
  });

  it('exits 1 with one masked line for an account the service does not know', async () => {
    const r = await cli(['lookup', '058', '9999999999'], env);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      'rampart: No account ••••9999 at bank 058; check both numbers with the account holder.',
    ]);
  });
});

describe('rampart identity get', () => {
  it('shows the BVN’s last 4 digits only and withholds the date of birth', async () => {
    const client = new ServiceClient({ baseUrl: sandbox.url, apiKey: KEY });
    const { id } = await client.createIdentity({
      type: 'BVN',
      name: 'Adaeze Okafor',
      details: { bvn: '22212345678', dob: '14-03-1990' },
    });
    await client.close();
    const table = await cli(['identity', 'get', id], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('BVN       ••••5678');
    const json = await cli(['identity', 'get', id, '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ id, type: 'bvn', is_active: true, details: { bvn: '••••5678' } });
    expect(table.stdout + json.stdout + table.stderr + json.stderr).not.toContain('22212345678');
  });

  it('exits 1 with the service’s words for an unknown identity', async () => {
    const r = await cli(['identity', 'get', 'idn_missing'], env);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('does not know that');
  });
});

describe('arguments, help and failures', () => {
  it.each([
    [['frobnicate'], 'rampart: unknown command "frobnicate"', 'usage: rampart <command>'],
    [['wallet'], 'rampart: missing <alias|id>', 'usage: rampart wallet <alias|id> [--json]'],
    [['wallet', 'ops', '--colour'], "rampart: unknown option '--colour'", 'usage: rampart wallet <alias|id> [--json]'],
    [['balances', 'ops', 'treasury'], 'rampart: unexpected argument "treasury"', 'usage: rampart balances'],
    [['identity'], 'rampart: "identity" needs one of: get', 'usage: rampart identity get <identity_id> [--json]'],
    [['lookup', '58', '0123456789'], 'rampart: "58" is not a bank code', 'usage: rampart lookup'],
  ])('exits 2 for %j with one line and the usage line', async (argv, message, usage) => {
    const r = await cli(argv, env);
    expect(r.code).toBe(2);
    const [first, second, ...more] = lines(r.stderr);
    expect(first?.startsWith(message)).toBe(true);
    expect(second?.startsWith(usage)).toBe(true);
    expect(more).toEqual([]);
    expect(r.stdout).toBe('');
  });

  it('prints help for help, --help and one command’s --help, exiting 0', async () => {
    const all = await cli(['help'], env);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('rampart user create --email E --name N [--website URL] [--description D]');
    expect((await cli(['--help'], env)).stdout).toBe(all.stdout);
    const one = await cli(['requests', 'show', '--help'], env);
    expect(one.stdout.split('\n')[0]).toBe('usage: rampart requests show <request_id> [--json]');
  });

  it('exits 1 with one line when the service cannot be reached', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const dead = { ...env, SERVICE_BASE_URL: `http://127.0.0.1:${port}` };
    const r = await cli(['rate'], dead);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      'rampart: The wallet service cannot be reached right now. Try again in a minute; if it keeps happening, tell on-call.',
    ]);
  });

  it('exits 1 with one line, naming the setting, for a bad configuration', async () => {
    const r = await cli(['rate'], { ...env, SERVICE_CONNECT_TIMEOUT: 'soon' });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('SERVICE_CONNECT_TIMEOUT');
  });

  it('starts and stops the built-in sandbox when SERVICE_BASE_URL is unset (a fresh machine)', async () => {
    const r = await cli(['balances', 'payroll', '--json'], { NODE_ENV: 'test' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ id: 'polygon:usdc', balance: 90_000 })]);
    expect(r.stderr).toContain('built-in sandbox');
  });
});
