/**
 * Request again's rows (app/request-again.ts againRows): a batch's failed and cancelled rows,
 * except a row screening cancelled at its start, told by the code its start stored on the
 * execution's outcome (store/lua/includes/start-cancel.lua); an outcome stored before codes were
 * is told by its words.
 */
import { describe, expect, it } from 'vitest';
import { againRows } from '../../../src/app/request-again.js';
import type { BatchRowRecord } from '../../../src/domain/batch-approval.js';
import type { ExecutionRecord, RequestOutcome, RequestRecord } from '../../../src/domain/request.js';
import type { RequestStore } from '../../../src/store/requests.js';
import { buildRecord } from '../../support/factories.js';

const LISTED = 'listed on OFAC SDN of 2026-11-27; nothing sent';

/** A done batch of one cancelled row per outcome, in a store that has it and nothing else. */
function storeWith(outcomes: readonly (RequestOutcome | undefined)[]) {
  const base = buildRecord('succeeded');
  const id = base.sealed.id;
  const source: RequestRecord = {
    ...base,
    shape: 'batch',
    approvalState: 'done',
    executionCount: outcomes.length,
    sealed: {
      ...base.sealed,
      display: { ...base.sealed.display, batch: { kind: 'transfers' } },
    } as RequestRecord['sealed'],
  };
  const rows: BatchRowRecord[] = outcomes.map((_, i) => ({ row: i + 2, destination: `0x${i}`, amount: '1' }));
  const executions: ExecutionRecord[] = outcomes.map((outcome, i) => ({
    id: `${id}.${i + 1}`,
    approvalId: id,
    state: 'cancelled',
    sealHash: '',
    tries: 0,
    ...(outcome ? { outcome } : {}),
  }));
  const store = {
    get: async () => source,
    postedAt: async () => undefined,
    submittedAs: async () => undefined,
    batches: { rows: async () => rows },
    executions: { page: async (_: string, offset: number, n: number) => executions.slice(offset, offset + n) },
  } as unknown as RequestStore;
  return { id, requester: source.sealed.requester, store };
}

async function offered(outcomes: readonly (RequestOutcome | undefined)[]): Promise<number[]> {
  const { id, requester, store } = storeWith(outcomes);
  const out = await againRows({ store }, id, requester);
  return out.kind === 'rows' ? out.rows.map((r) => r.row) : [];
}

describe('request again leaves out the rows screening cancelled', () => {
  it('by the stored code, whatever the words', async () => {
    expect(
      await offered([
        { message: 'its destination is on the sanctions list; nothing sent', code: 'screening_listed' },
        { message: 'reworded', code: 'screening_stale' },
        { message: LISTED, code: 'entry_removed' },
        { message: 'address-book entry removed; nothing sent', code: 'entry_removed' },
      ]),
    ).toEqual([4, 5]);
  });

  it('by the words on an outcome stored without a code (older versions)', async () => {
    expect(
      await offered([{ message: LISTED }, { message: 'address-book entry removed; nothing sent' }, undefined]),
    ).toEqual([3, 4]);
  });
});
