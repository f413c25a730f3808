/**
 * Recording an outcome-unknown payment, against a real Redis: `paid` needs proof valid for the
 * chain; `not-paid` only proposes, and a second approver — not the proposer, not the requester,
 * not from the CLI, with a passkey on a passkey approval, on the proposal they saw — confirms it.
 * The move and the velocity give-back happen once, in the finish script, whatever races it.
 */

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmNotPaid } from '../../src/app/confirm-not-paid.js';
import { approve } from '../../src/app/decide.js';
import { markUnknown } from '../../src/app/execute-one.js';
import { outcomeFacts } from '../../src/app/outcome-facts.js';
import { recordPaid, resolveUnknown } from '../../src/app/resolve.js';
import { takeUnknownReadings } from '../../src/app/unknown-reading.js';
import { auditRecord } from '../../src/audit/audit-record.js';
import { loadConfig } from '../../src/config.js';
import { velocitySubject } from '../../src/domain/velocity.js';
import { BalanceCache } from '../../src/store/balance-cache.js';
import { BalanceHistory } from '../../src/store/balance-history.js';
import { sealedOf } from '../support/factories.js';
import { APPROVERS, REQUESTER, sealBatch, transfer, useWorld } from './support.js';

const A1 = APPROVERS[0] as string;
const A2 = APPROVERS[1] as string;
const A3 = 'U0APPROVER3';
const HASH = `0x${'5e'.repeat(32)}`;
const w = useWorld('not-paid');

beforeAll(async () => {
  w.deps.config = { ...loadConfig({ NODE_ENV: 'test', VELOCITY_LIMITS: 'ops:USDC=100/24h' }), approvers: APPROVERS };
  // The requester is an approver too: only the rule keeps them from settling their own payment.
  const everyone = [...APPROVERS, A3, REQUESTER];
  w.deps.approvers = { isApprover: async (u) => everyone.includes(u) };
});
beforeEach(async () => {
  const subject = velocitySubject({ call: transfer(1), display: { chain: 'base', walletAlias: 'ops' } });
  if (!subject) throw new Error('no subject');
  await w.redis.del(w.controls.ledgerKey(subject), w.controls.amountsKey(subject), w.store.keys.turns);
});

const ledger = () => {
  const subject = velocitySubject({ call: transfer(1), display: { chain: 'base', walletAlias: 'ops' } });
  if (!subject) throw new Error('no subject');
  return w.controls.ledgerKey(subject);
};
const counted = async (member: string) => (await w.redis.zscore(ledger(), member)) !== null;
const unknownDeps = () => ({ store: w.store, jobs: w.deps.queues, log: w.deps.log, controls: w.controls });

/** Approved (velocity booked), started, then left outcome unknown as a stalled worker leaves it. */
async function leaveUnknown(id: string, n = 1): Promise<string> {
  const execId = `${id}.${n}`;
  let started = await w.store.executions.start(execId, 'test-worker');
  // A batch's first row asks for its funding check first; the sandbox wallet holds enough.
  if (!started.token && started.approval === 'funding') {
    await w.store.batches.markFunded(id);
    started = await w.store.executions.start(execId, 'test-worker');
  }
  if (!started.token) throw new Error(`${execId} not started`);
  expect(await markUnknown(unknownDeps(), execId, 'the service answered 502')).toBe(true);
  return execId;
}

async function unknownSingle(amount = 20, stepUp = false): Promise<{ id: string; execId: string }> {
  const id = await sealBatch(w, [amount], 'R');
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  const execId = await leaveUnknown(id);
  if (stepUp) {
    // Approved with passkeys: the stored approval says so (the vote's own passkey is not under test here).
    const key = w.store.keys.approval(id);
    const sealed = JSON.parse((await w.redis.hget(key, 'frozen')) ?? '{}') as Record<string, unknown>;
    await w.redis.hset(key, 'frozen', JSON.stringify({ ...sealed, stepUp: true }));
  }
  return { id, execId };
}

const stateOf = async (execId: string) => (await w.store.executions.get(execId))?.state;
const events = async (id: string) => (await w.store.history(id)).map((e) => e.event);

describe('not-paid takes two different people, neither the requester', () => {
  it('a not-paid alone only records a proposal: the execution stays unknown and its velocity counted', async () => {
    const { id, execId } = await unknownSingle();
    expect(await counted(id)).toBe(true);
    const r = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
    expect(r.kind).toBe('proposed');
    expect(await stateOf(execId)).toBe('unknown');
    expect(await counted(id)).toBe(true);
    const proposal = (await w.store.executions.get(execId))?.proposal;
    expect(proposal).toMatchObject({ by: A1, why: 'no debit on ops', id: expect.stringMatching(/^P-[0-9a-f]{8}$/) });
    const entry = (await w.store.history(id)).find((e) => e.event === 'not-paid-proposed');
    expect(entry).toMatchObject({ by: A1 });
    expect(entry?.detail).toContain(proposal?.id);
    expect(w.notified.at(-1)).toEqual({ requestId: id, kind: 'proposal' });
    // A second proposal while one waits is pointed at the pending one.
    expect((await resolveUnknown(w.deps, A2, { id: execId, paid: false, note: 'nothing' })).kind).toBe('pending');
  });

  it('refuses a confirmation by the proposer, by the requester, from the CLI, or of another proposal; nothing changes', async () => {
    const { id, execId } = await unknownSingle();
    const p = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    const seen = p.proposal.id;
    expect(await confirmNotPaid(w.deps, A1, execId, seen)).toMatchObject({ kind: 'refused', why: 'proposer' });
    expect((await confirmNotPaid(w.deps, REQUESTER, execId, seen)).kind).toBe('self');
    expect(await confirmNotPaid(w.deps, A2, execId, seen, 'cli')).toMatchObject({ kind: 'refused', why: 'cli' });
    expect(await confirmNotPaid(w.deps, A2, execId, 'P-00000000')).toMatchObject({ kind: 'refused', why: 'stale' });
    expect(await stateOf(execId)).toBe('unknown');
    expect(await counted(id)).toBe(true);
    expect(await events(id)).not.toContain('failed');
  });

  it('the finish script itself refuses a not-paid move without a proposal, by the proposer or by the requester', async () => {
    const { id, execId } = await unknownSingle();
    const finish = (confirm?: { proposal: string; by: string }) =>
      w.store.executions.finish(execId, '', 'failed', { message: 'x' }, 'x', {
        from: ['unknown'],
        ...(confirm ? { confirm } : {}),
      });
    expect(await finish()).toMatchObject({ ok: false, refused: 'no-confirmation' });
    expect(await finish({ proposal: 'P-1', by: A2 })).toMatchObject({ ok: false, refused: 'no-proposal' });
    const p = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    expect(await finish({ proposal: p.proposal.id, by: A1 })).toMatchObject({ ok: false, refused: 'proposer' });
    expect(await finish({ proposal: p.proposal.id, by: REQUESTER })).toMatchObject({ ok: false, refused: 'requester' });
    expect(await stateOf(execId)).toBe('unknown');
    expect(await counted(id)).toBe(true);
  });

  it('a second approver confirms: failed, velocity released, both people in the history and outcome', async () => {
    const { id, execId } = await unknownSingle();
    const p = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    const r = await confirmNotPaid(w.deps, A2, execId, p.proposal.id);
    expect(r.kind).toBe('confirmed');
    expect(await stateOf(execId)).toBe('failed');
    expect(await counted(id)).toBe(false);
    const failed = (await w.store.history(id)).find((e) => e.event === 'failed');
    expect(failed?.by).toBe(A2);
    expect(failed?.detail).toContain(`proposed by ${A1}`);
    const record = await w.store.get(id);
    expect(record?.outcome?.resolution).toMatchObject({ by: A2, paid: false, proposal: { by: A1 } });
    // The audit trail holds both steps and the reason.
    if (!record) throw new Error('gone');
    const audit = auditRecord(record, await w.store.history(id));
    expect(audit.outcome?.resolution).toMatchObject({
      by: A2,
      paid: false,
      proposal: { by: A1, why: 'no debit on ops', at: expect.stringMatching(/^\d{4}-/) },
    });
    expect(audit.history.map((e) => e.event)).toEqual(expect.arrayContaining(['not-paid-proposed', 'failed']));
  });

  it('two concurrent confirmations move the execution once and release its velocity once', async () => {
    const { id, execId } = await unknownSingle(30);
    const p = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => confirmNotPaid(w.deps, i % 2 ? A2 : A3, execId, p.proposal.id)),
    );
    expect(results.filter((r) => r.kind === 'confirmed')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'not-unknown')).toHaveLength(5);
    expect((await events(id)).filter((e) => e === 'failed')).toHaveLength(1);
    expect((await w.store.get(id))?.counts.failed).toBe(1);
    expect(await counted(id)).toBe(false);
  });

  it('a batch row is confirmed on its own: its units given back once, the batch’s rest still counted', async () => {
    const id = await sealBatch(w, [10, 15]);
    expect((await approve(w.deps, id, A1)).kind).toBe('approved');
    const execId = await leaveUnknown(id, 1);
    expect(await counted(execId)).toBe(true);
    const p = await resolveUnknown(w.deps, A2, { id: execId, paid: false, note: 'no debit' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    const results = await Promise.all([
      confirmNotPaid(w.deps, A1, execId, p.proposal.id),
      confirmNotPaid(w.deps, A3, execId, p.proposal.id),
    ]);
    expect(results.filter((r) => r.kind === 'confirmed')).toHaveLength(1);
    expect(await stateOf(execId)).toBe('failed');
    expect(await counted(execId)).toBe(false);
    expect(await counted(id)).toBe(true);
  });

  it('a passkey approval’s confirmation without a passkey is refused and changes nothing', async () => {
    const { id, execId } = await unknownSingle(20, true);
    const p = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    expect(await confirmNotPaid(w.deps, A2, execId, p.proposal.id)).toMatchObject({
      kind: 'refused',
      why: 'needs-passkey',
    });
    // The script holds the same line when a caller skips the use case.
    const direct = await w.store.executions.finish(execId, '', 'failed', { message: 'x' }, 'x', {
      from: ['unknown'],
      confirm: { proposal: p.proposal.id, by: A2 },
    });
    expect(direct).toMatchObject({ ok: false, refused: 'needs-passkey' });
    expect(await stateOf(execId)).toBe('unknown');
    expect(await counted(id)).toBe(true);
  });

  it('today’s stricter step-up setting also asks for a passkey', async () => {
    const { execId } = await unknownSingle(20);
    const before = w.deps.config;
    w.deps.config = { ...before, stepUp: { ...before.stepUp, above: { USDC: '10' } } };
    try {
      const p = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
      if (p.kind !== 'proposed') throw new Error(p.kind);
      expect(await confirmNotPaid(w.deps, A2, execId, p.proposal.id)).toMatchObject({ why: 'needs-passkey' });
      expect(await stateOf(execId)).toBe('unknown');
    } finally {
      w.deps.config = before;
    }
  });
});

describe('paid', () => {
  it('refuses 0xabc and a Solana signature on Base; nothing changes', async () => {
    const { execId } = await unknownSingle();
    expect(await recordPaid(w.deps, A1, execId, '0xabc')).toMatchObject({ kind: 'bad-proof' });
    const sig = '5'.repeat(88);
    const r = await recordPaid(w.deps, A1, execId, sig);
    expect(r.kind).toBe('bad-proof');
    expect(await stateOf(execId)).toBe('unknown');
  });

  it('supersedes a pending not-paid proposal (history keeps both); a confirmation after it is refused', async () => {
    const { id, execId } = await unknownSingle();
    const p = await resolveUnknown(w.deps, A1, { id: execId, paid: false, note: 'no debit on ops' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    const paid = await recordPaid(w.deps, A2, execId, HASH);
    expect(paid).toMatchObject({ kind: 'paid', superseded: { id: p.proposal.id } });
    expect(await confirmNotPaid(w.deps, A3, execId, p.proposal.id)).toMatchObject({
      kind: 'not-unknown',
      state: 'succeeded',
    });
    expect(await stateOf(execId)).toBe('succeeded');
    expect(await counted(id)).toBe(true);
    const history = await events(id);
    expect(history).toEqual(expect.arrayContaining(['unknown', 'not-paid-proposed', 'succeeded']));
    expect(history).not.toContain('failed');
  });

  it('is never a bare request id: R-n is refused, nothing changes', async () => {
    const { id, execId } = await unknownSingle();
    expect((await resolveUnknown(w.deps, A1, { id, paid: true, note: HASH })).kind).toBe('missing');
    expect(await stateOf(execId)).toBe('unknown');
  });
});

describe('the Record outcome form’s evidence', () => {
  const dashboard = () => ({
    history: new BalanceHistory(w.redis, w.prefix),
    cache: new BalanceCache(w.redis, w.prefix),
  });
  const factsDeps = () => ({ ...w.deps, dashboard: dashboard() });

  it('compares the reading from before the start with the one taken once unknown and one now; no drop cannot tell', async () => {
    const before = Date.now();
    await dashboard().history.record('wal_ops_7f3a', { at: before, gap: false, available: { 'base:usdc': 1000 } });
    const { id, execId } = await unknownSingle(12);
    const record = await w.store.get(id);
    if (!record) throw new Error('gone');
    const reading = { store: w.store, service: w.service, log: w.deps.log, now: Date.now };
    await takeUnknownReadings(reading, record);
    const first = (await w.store.executions.facts(execId)).reading;
    expect(first?.available['base:usdc']).toEqual(expect.any(Number));
    await takeUnknownReadings(reading, record); // once: the first reading stays
    expect((await w.store.executions.facts(execId)).reading).toEqual(first);
    const r = await outcomeFacts(factsDeps(), A2, execId, true);
    if (!r.ok) throw new Error(r.outcome.kind);
    expect(r.facts.before).toEqual({ at: before, gap: false, available: { 'base:usdc': 1000 } });
    expect(r.facts.atUnknown).toEqual(first);
    expect(r.facts.now?.available['base:usdc']).toEqual(expect.any(Number));
    expect(r.facts.startedAt).toBeGreaterThanOrEqual(before);
    expect(r.facts.others).toEqual([]);
    // The requester never sees the form.
    expect(await outcomeFacts(factsDeps(), REQUESTER, execId, false)).toMatchObject({ ok: false });
  });

  it('names another payment on the wallet and asset that ran between the readings', async () => {
    await dashboard().history.record('wal_ops_7f3a', { at: Date.now(), gap: false, available: { 'base:usdc': 1000 } });
    const { execId } = await unknownSingle(13);
    const other = await sealBatch(w, [14], 'R');
    expect((await approve(w.deps, other, A1)).kind).toBe('approved');
    const started = await w.store.executions.start(`${other}.1`, 'test-worker');
    if (!started.token) throw new Error('not started');
    await w.store.executions.finish(`${other}.1`, started.token, 'succeeded', { hash: HASH });
    const r = await outcomeFacts(factsDeps(), A2, execId, true);
    if (!r.ok) throw new Error(r.outcome.kind);
    expect(r.facts.others).toEqual([`${other}.1`]);
  });
});

describe('a record written before approvals had executions', () => {
  it('is migrated by the proposal’s own script, then confirmed like any other', async () => {
    const id = 'R-90001';
    const call = transfer(9);
    const sealed = sealedOf(id, call, { requester: REQUESTER, reason: 'before the upgrade' });
    const now = sealed.createdAt;
    await w.redis.hset(w.store.keys.approval(id), {
      frozen: JSON.stringify(sealed),
      state: 'unknown',
      requester: REQUESTER,
      kind: 'transfer',
      votes: JSON.stringify([{ user: A1, at: now }]),
      outcome: JSON.stringify({ message: 'HTTP 502' }),
    });
    await w.redis.rpush(w.store.keys.history(id), JSON.stringify({ at: now, event: 'unknown' }));
    const p = await resolveUnknown(w.deps, A1, { id: `${id}.1`, paid: false, note: 'no debit on ops' });
    if (p.kind !== 'proposed') throw new Error(p.kind);
    expect(await stateOf(`${id}.1`)).toBe('unknown');
    expect((await confirmNotPaid(w.deps, A2, `${id}.1`, p.proposal.id)).kind).toBe('confirmed');
    expect(await stateOf(`${id}.1`)).toBe('failed');
  });
});
