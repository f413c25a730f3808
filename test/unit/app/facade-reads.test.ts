/**
 * The reads moved out of the Slack listeners into app/ — App Home's lists and the
 * request form's asset and wallet choices — with in-memory ports.
 */
import { describe, expect, it } from 'vitest';
import { heldAssets, walletChoices } from '../../../src/app/asset-choices.js';
import { type HomeDeps, RECENT_ON_HOME, readHome } from '../../../src/app/home.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import type { BalanceEntry, Wallet } from '../../../src/service/schemas.js';
import { buildRecord, buildSealedRequest, buildWallet } from '../../support/factories.js';

const record = (id: string, createdAt: number): RequestRecord => ({
  ...buildRecord('pending'),
  sealed: buildSealedRequest('transfer', { id, createdAt }),
});

const notRead: unknown = new Proxy(
  {},
  {
    get: () => {
      throw new Error('a single request has no rows to read');
    },
  },
);

function homeDeps(records: RequestRecord[], open: string[], recent: string[]) {
  const asked: number[] = [];
  const deps: HomeDeps = {
    store: {
      openIds: async () => open,
      recentIds: async (limit) => {
        asked.push(limit ?? 0);
        return recent;
      },
      get: async (id) => records.find((r) => r.sealed.id === id),
      idsInState: async () => [],
      // Read only for a finished batch's total moved; none of these records is one.
      batches: notRead as HomeDeps['store']['batches'],
      executions: notRead as HomeDeps['store']['executions'],
    },
    controls: { freeze: async () => ({ by: 'U0APPROVER1', at: 1, reason: 'audit' }) },
  };
  return { deps, asked };
}

describe('readHome', () => {
  const records = [record('R-1', 100), record('R-2', 300), record('R-3', 200)];

  it('lists open requests newest first, skipping ids whose record is gone, with the freeze', async () => {
    const { deps } = homeDeps(records, ['R-1', 'R-9', 'R-2', 'R-3'], []);
    const home = await readHome(deps, true);
    expect(home.open.map((r) => r.sealed.id)).toEqual(['R-2', 'R-3', 'R-1']);
    expect(home.freeze?.reason).toBe('audit');
  });

  it('reads the recent requests for a VIEWER only', async () => {
    const viewer = homeDeps(records, [], ['R-3', 'R-1']);
    expect((await readHome(viewer.deps, true)).recent.map((r) => r.sealed.id)).toEqual(['R-3', 'R-1']);
    expect(viewer.asked).toEqual([RECENT_ON_HOME]);
    const other = homeDeps(records, [], ['R-3', 'R-1']);
    expect((await readHome(other.deps, false)).recent).toEqual([]);
    expect(other.asked).toEqual([]);
  });
});

const entry = (id: string, available: number): BalanceEntry => ({
  id,
  name: id,
  code: id,
  blockchain: { id: 1, name: 'chain' },
  balance: available,
  available,
  debt: 0,
});

describe('the request form choices', () => {
  it('offers only known assets the wallet holds, each with its available amount', async () => {
    const service = {
      getBalances: async () => [entry('base:usdc', 1250.5), entry('base:eurc', 0), entry('dogecoin:doge', 9)],
    };
    expect(await heldAssets({ service }, 'wal_1')).toEqual([
      { id: 'base:usdc', note: '1,250.50 available', available: '1,250.50' },
    ]);
  });

  it('marks a wallet that cannot do the job, and lists one it could not read unmarked', async () => {
    const wallets: Record<string, Wallet> = {
      wal_ops: buildWallet('wal_ops'),
      wal_off: buildWallet('wal_off', { offramp: false }),
      wal_idle: buildWallet('wal_idle', { is_active: false }),
    };
    const service = {
      getBalances: async () => [],
      getWallet: async (id: string) => {
        const w = wallets[id];
        if (!w) throw new Error('the service is down');
        return w;
      },
    };
    const config = {
      wallets: ['ops', 'off', 'idle', 'gone'].map((alias) => ({ alias, id: `wal_${alias}` })),
    };
    expect(await walletChoices({ service, config }, 'offramp')).toEqual([
      { alias: 'ops', id: 'wal_ops', note: undefined },
      { alias: 'off', id: 'wal_off', note: 'offramps off' },
      { alias: 'idle', id: 'wal_idle', note: 'inactive' },
      { alias: 'gone', id: 'wal_gone', note: undefined },
    ]);
  });
});
