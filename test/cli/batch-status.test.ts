/**
 * `rampart batch status`, `batch receipt` and `requests show B-…` against a real Redis
 * holding a batch written by the same store and use cases the app uses: one row succeeded, one
 * failed, one unknown (which pauses the batch), then stopped so the last row is cancelled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { stopBatch } from '../../src/app/batch-control.js';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { batchRowOutcomes } from '../../src/app/request-reads.js';
import { batchReceipt } from '../../src/presenters/batch-receipt.js';
import { APPROVERS, REQUESTER, sealBatch, useWorld } from '../app/support.js';
import { buildBatchFacts } from '../support/factories.js';
import { REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const w = useWorld('cli-batch');
let id = '';
const env = () => ({ NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: w.prefix });
const HASH = `0x${'ab'.repeat(32)}`;
const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

async function finish(n: number, state: 'succeeded' | 'failed' | 'unknown', fields: Record<string, string>) {
  const started = await w.store.executions.start(`${id}.${n}`, 't');
  if (!started.token) throw new Error(`row ${n} did not start`);
  await w.store.executions.finish(`${id}.${n}`, started.token, state, fields);
}

beforeAll(async () => {
  const amounts = [1.5, 2, 3, 4];
  const batch = buildBatchFacts(amounts);
  // A reference a spreadsheet would run as a formula: the receipt must neutralise it.
  id = await sealBatch(w, amounts, 'B', {
    rows: amounts.map((a, i) => ({
      row: i + 2,
      destination: RECEIVER,
      amount: String(a),
      reference: i === 0 ? '=HYPERLINK("x")' : `INV-${i}`,
    })),
    display: { chain: 'base', walletAlias: 'ops', assetCode: 'USDC', amountText: '10.50', batch },
    reason: 'November vendor run',
  });
  await approve(w.deps, id, APPROVERS[0] as string);
  // The funding check a batch passes when it takes its wallet's turn (app/batch-funding.ts).
  expect(await checkFunding(w.deps, id)).toBe('funded');
  await finish(1, 'succeeded', { hash: HASH });
  await finish(2, 'failed', { message: 'receiver is blocked' });
  await finish(3, 'unknown', { message: 'no answer' });
});

describe('rampart batch status', () => {
  it('says a paused batch is paused and why, with its rows counted by state and the total moved', async () => {
    const r = await cli(['batch', 'status', id.toLowerCase()], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Batch   ${id}`);
    expect(r.stdout).toContain('State   PAUSED');
    expect(r.stdout).toContain('Rows    1 queued, 0 executing, 1 succeeded, 1 failed, 1 unknown, 0 cancelled');
    expect(r.stdout).toContain('Total   10.50 USDC');
    expect(r.stdout).toContain('Moved   1.50 USDC (rows that succeeded)');
    expect(r.stdout).toContain(`Paused  the outcome of row 4 (${id}.3) is UNKNOWN`);
    const json = JSON.parse((await cli(['batch', 'status', id, '--json'], env())).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ id, state: 'paused', rows: 4, moved: '1.50', counts: { unknown: 1, queued: 1 } });
  });

  it('refuses what is not a batch id (2) and a batch that is not there (1), in one line', async () => {
    const malformed = await cli(['batch', 'status', 'R-12'], env());
    expect(malformed.code).toBe(2);
    expect(lines(malformed.stderr)[0]).toBe('rampart: "R-12" is not a batch id such as B-12');
    const missing = await cli(['batch', 'status', 'B-999999'], env());
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr)).toEqual([`rampart: No batch B-999999 under REDIS_PREFIX "${w.prefix}".`]);
  });
});

describe('rampart batch receipt', () => {
  it('prints the same receipt CSV as the thread, formula cells neutralised', async () => {
    await stopBatch(w.deps, id, REQUESTER);
    const record = await w.store.get(id);
    expect(record?.approvalState).toBe('done');
    if (!record) return;
    const r = await cli(['batch', 'receipt', id], env());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `${batchReceipt(record, await batchRowOutcomes(w.store, record)).csv.replace(/\r\n$/, '')}\n`,
    );
    const csv = r.stdout.trim().split('\r\n');
    expect(csv[0]).toBe('row,destination,amount,reference,state,hash or reference,error');
    expect(csv[1]).toBe(`2,${RECEIVER},1.5,"'=HYPERLINK(""x"")",succeeded,${HASH},`);
    expect(csv[2]).toMatch(/^3,0x99ED2e97162533BA814aF8092b93b9a3090DEdcF,2,INV-1,failed,,.*receiver is blocked/);
    expect(csv[3]).toMatch(/^4,.*,3,INV-2,unknown,,/);
    expect(csv[4]).toMatch(/^5,.*,4,INV-3,cancelled,,/);
  });
});

describe('rampart requests show B-…', () => {
  it('lists the batch’s executions after its history', async () => {
    const r = await cli(['requests', 'show', id], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('To         4 rows (see its executions)');
    const executions = r.stdout.split('Executions\n')[1] ?? '';
    expect(executions.split('\n')[0]).toMatch(
      /^Execution\s+Row\s+Destination\s+Amount\s+State\s+Hash or reference\s+Error$/,
    );
    expect(executions).toContain(`${id}.1`);
    expect(executions).toMatch(new RegExp(`${id}\\.2\\s+3\\s+${RECEIVER}\\s+2 USDC\\s+failed`));
    expect(executions).toMatch(new RegExp(`${id}\\.4\\s+5\\s+.*cancelled`));
    const json = JSON.parse((await cli(['requests', 'show', id, '--json'], env())).stdout) as {
      executions: { id: string; state: string }[];
    };
    expect(json.executions.map((e) => e.state)).toEqual(['succeeded', 'failed', 'unknown', 'cancelled']);
  });
});
