/** checkBatch with in-memory ports: live facts, beneficiaries resolved to ids, totals and limits. */

import { describe, expect, it } from 'vitest';
import { type CheckBatchDeps, checkBatch } from '../../../src/app/check-batch.js';
import { loadConfig } from '../../../src/config.js';
import { amountToString } from '../../../src/domain/amount.js';
import { fileFingerprint } from '../../../src/domain/batch-hash.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import type { BeneficiaryEntry } from '../../../src/store/registry.js';
import { buildBeneficiary, buildRecord } from '../../support/factories.js';

const EVM_A = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const EVM_B = '0x52908400098527886E0F7030069857D2E4169EE7';
const NOW = Date.UTC(2026, 10, 23);

const beneficiary = (id: string, label: string): BeneficiaryEntry => buildBeneficiary(id, label, { createdAt: NOW });

interface WorldOptions {
  available?: number;
  active?: boolean;
  offramp?: boolean;
  velocity?: string;
  used?: bigint;
  failWallet?: boolean;
}

function world(o: WorldOptions = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    WALLETS: 'ops=wal_ops_7f3a',
    ...(o.velocity ? { VELOCITY_LIMITS: o.velocity } : {}),
  });
  const pending: RequestRecord = buildRecord('pending', 'register-beneficiary', {});
  pending.sealed = {
    ...pending.sealed,
    id: 'R-9',
    call: {
      kind: 'register-beneficiary',
      body: {
        beneficiaries: [
          {
            beneficiary_id: 'ben_new',
            identity_id: 'idn_1',
            label: 'Newco',
            bank_name: 'GTBank',
            account_last4: '1111',
          },
        ],
      },
    },
  };
  const deps = {
    config,
    now: () => NOW,
    service: {
      async getWallet() {
        if (o.failWallet) throw new Error('the wallet service did not answer');
        return {
          is_active: o.active ?? true,
          transfer: true,
          offramp: o.offramp ?? true,
          address: { evm: '0xabc', svm: 'So1' },
        };
      },
      async getBalances() {
        return [{ id: 'base:usdc', available: o.available ?? 100_000 }];
      },
    },
    registry: {
      beneficiaries: async () => [
        beneficiary('ben_1', 'Acme payroll'),
        beneficiary('ben_2', 'Twin'),
        beneficiary('ben_3', 'twin'),
      ],
    },
    store: {
      idsInState: async () => ['R-9'],
      get: async () => pending,
      // No list loaded: every row passes, and the card says it was not screened.
      screening: { check: async (keys: string[]) => ({ meta: undefined, listed: keys.map(() => false) }) },
    },
    controls: {
      usage: async (_s: unknown, rules: { limit: bigint }[]) => rules.map((rule) => ({ rule, used: o.used ?? 0n })),
    },
  } as unknown as CheckBatchDeps;
  return deps;
}

const file = (text: string) => new TextEncoder().encode(text);

describe('checkBatch', () => {
  it('seals every row as the exact service call, with total, largest, balances and the fingerprint', async () => {
    const out = await checkBatch(world(), {
      kind: 'transfers',
      wallet: 'OPS',
      asset: 'base:usdc',
      bytes: file(`receiver,amount,reference\n${EVM_A},250,inv 1\n${EVM_B},1000.5,inv 2\n`),
    });
    if (out.kind !== 'checked') throw new Error(JSON.stringify(out));
    expect(out.rows.map((r) => r.call)).toEqual([
      { kind: 'transfer', body: { wallet_id: 'wal_ops_7f3a', amount: 250, receiver: EVM_A, asset: 'base:usdc' } },
      { kind: 'transfer', body: { wallet_id: 'wal_ops_7f3a', amount: 1000.5, receiver: EVM_B, asset: 'base:usdc' } },
    ]);
    expect(out.rows.map((r) => r.reference)).toEqual(['inv 1', 'inv 2']);
    expect(out.rows[0]?.sealHash).toMatch(/^[0-9a-f]{64}$/);
    expect(amountToString(out.total)).toBe('1250.5');
    expect(out.largest.row).toBe(3);
    expect(amountToString(out.availableNow)).toBe('100000');
    expect(amountToString(out.availableAfter)).toBe('98749.5');
    expect(out.fileFingerprint).toBe(fileFingerprint('transfers', 'wal_ops_7f3a', 'base:usdc', out.rows));
  });

  it('the fingerprint ignores row order and address case but not amounts', async () => {
    const check = (text: string) =>
      checkBatch(world(), { kind: 'transfers', wallet: 'ops', asset: 'base:usdc', bytes: file(text) });
    const a = await check(`receiver,amount\n${EVM_A},1\n${EVM_B},2\n`);
    const b = await check(`amount,receiver\n2,${EVM_B.toLowerCase()}\n1.000,${EVM_A}\n`);
    const c = await check(`receiver,amount\n${EVM_A},1\n${EVM_B},3\n`);
    if (a.kind !== 'checked' || b.kind !== 'checked' || c.kind !== 'checked') throw new Error('not checked');
    expect(b.fileFingerprint).toBe(a.fileFingerprint);
    expect(c.fileFingerprint).not.toBe(a.fileFingerprint);
  });

  it('resolves beneficiary labels to ids and refuses pending, unknown and ambiguous ones, every row at once', async () => {
    const ok = await checkBatch(world(), {
      kind: 'offramps',
      wallet: 'ops',
      asset: 'base:usdc',
      bytes: file('beneficiary,amount\nACME PAYROLL,10\nben_2,5\n'),
    });
    if (ok.kind !== 'checked') throw new Error(JSON.stringify(ok));
    expect(ok.rows.map((r) => [r.destination, r.written, r.call.body])).toEqual([
      ['ben_1', 'ACME PAYROLL', { wallet_id: 'wal_ops_7f3a', amount: 10, beneficiary_id: 'ben_1', asset: 'base:usdc' }],
      ['ben_2', undefined, { wallet_id: 'wal_ops_7f3a', amount: 5, beneficiary_id: 'ben_2', asset: 'base:usdc' }],
    ]);
    const bad = await checkBatch(world(), {
      kind: 'offramps',
      wallet: 'ops',
      asset: 'base:usdc',
      bytes: file('beneficiary,amount\nnewco,10\nTwin,5\nnobody,1\nben_1,1.1234567\n'),
    });
    expect(bad).toEqual({
      kind: 'invalid',
      fileErrors: [],
      rowErrors: [
        {
          row: 2,
          column: 'beneficiary',
          message:
            'Row 2 beneficiary: "newco" is not approved yet (request R-9 waits for approval); pay it once it is approved.',
        },
        {
          row: 3,
          column: 'beneficiary',
          message:
            'Row 3 beneficiary: "Twin" is the label of 2 approved beneficiaries (ben_2, ben_3); write the id of the one to pay.',
        },
        {
          row: 4,
          column: 'beneficiary',
          message:
            'Row 4 beneficiary: "nobody" is not an approved beneficiary in Rampart; use an id or label from /beneficiary list, or add it with /beneficiary new and wait for its approval.',
        },
        { row: 5, column: 'amount', message: 'Row 5 amount: This asset has 6 decimal places; 1.1234567 has 7.' },
      ],
    });
  });

  it('refuses a total above the available balance, an inactive wallet, offramps turned off', async () => {
    const text = `receiver,amount\n${EVM_A},600\n${EVM_B},500\n`;
    const input = { kind: 'transfers' as const, wallet: 'ops', asset: 'base:usdc', bytes: file(text) };
    expect(await checkBatch(world({ available: 1000 }), input)).toEqual({
      kind: 'invalid',
      fileErrors: ['The total of 1,100.00 USDC is too much: Only 1,000.00 USDC is available on ops.'],
      rowErrors: [],
    });
    expect(await checkBatch(world({ active: false }), input)).toMatchObject({
      fileErrors: ['Wallet ops is inactive; nothing can be sent from it.'],
    });
    expect(
      await checkBatch(world({ offramp: false }), {
        ...input,
        kind: 'offramps',
        bytes: file('beneficiary,amount\nben_1,1\n'),
      }),
    ).toMatchObject({ fileErrors: ['Offramps are turned off for wallet ops.'] });
  });

  it('refuses a total over a velocity limit, and notes the headroom when it fits', async () => {
    const input = {
      kind: 'transfers' as const,
      wallet: 'ops',
      asset: 'base:usdc',
      bytes: file(`receiver,amount\n${EVM_A},600\n${EVM_B},500\n`),
    };
    const over = await checkBatch(world({ velocity: 'ops:USDC=2000/24h', used: 1_000_000_000n }), input);
    expect(over).toEqual({
      kind: 'invalid',
      fileErrors: [
        'The batch total is over a velocity limit. Limit for ops: 2,000.00 USDC per 24 h. 1,000.00 left, and this batch totals 1,100.00 USDC: ask for at most what is left, or wait for earlier payments to leave the 24 h window.',
      ],
      rowErrors: [],
    });
    const fits = await checkBatch(world({ velocity: 'ops:USDC=2000/24h' }), input);
    expect(fits.kind === 'checked' && fits.velocityNote).toBe('Limit for ops: 2,000.00 USDC per 24 h. 2,000.00 left');
  });

  it('says the wallet could not be checked when the service fails, and names an unknown wallet or asset', async () => {
    const bytes = file(`receiver,amount\n${EVM_A},1\n`);
    expect(
      await checkBatch(world({ failWallet: true }), { kind: 'transfers', wallet: 'ops', asset: 'base:usdc', bytes }),
    ).toMatchObject({
      kind: 'unchecked',
    });
    expect(await checkBatch(world(), { kind: 'transfers', wallet: 'nope', asset: 'base:usdt', bytes })).toEqual({
      kind: 'invalid',
      fileErrors: [
        '"nope" is not a configured wallet; choose one of ops.',
        'USDT is not available on base; use one of ethereum, arbitrum, solana, polygon, bsc, optimism, avalanche.',
      ],
      rowErrors: [],
    });
  });
});
