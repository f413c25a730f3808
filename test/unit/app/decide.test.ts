/** The decision use cases with in-memory ports: each outcome, and what each one queues. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approve, CARD_AFTER_QUORUM_MS, cancel, deny } from '../../../src/app/decide.js';
import type { AppDeps } from '../../../src/app/deps.js';
import type { ViewState } from '../../../src/domain/approval.js';
import { createLogger } from '../../../src/log.js';
import type { VoteResult } from '../../../src/store/requests.js';

function world(opts: { approvers?: string[]; groupsDown?: boolean; required?: number } = {}) {
  const approvers = new Set(opts.approvers ?? ['U1', 'U2']);
  const record = { state: 'pending' as ViewState, votes: [] as string[], requester: 'U0', execution: 'queued' };
  const queued: string[] = [];
  const store = {
    async castVote(_id: string, user: string): Promise<VoteResult> {
      const facts = { required: opts.required ?? 1, decidedBy: undefined, decidedAt: undefined, expiresAt: 9e15 };
      const answer = (outcome: VoteResult['outcome']) => ({
        outcome,
        state: record.state,
        votes: record.votes.length,
        ...facts,
      });
      if (record.state !== 'pending') return answer('not_pending');
      if (user === record.requester) return answer('self');
      if (record.votes.includes(user)) return answer('duplicate');
      record.votes.push(user);
      if (record.votes.length < facts.required) return answer('voted');
      record.state = 'approved';
      return answer('approved');
    },
    async transition(_id: string, from: ViewState[], to: ViewState) {
      const before = record.state;
      if (!from.includes(before)) return { ok: false, from: before };
      record.state = to;
      return { ok: true, from: before };
    },
    async get(id: string) {
      return { sealed: { id, requester: record.requester, expiresAt: 9e15 }, state: record.state, votes: [] };
    },
    async execution(id: string) {
      return { id, state: record.execution, tries: 0 };
    },
  };
  const queues = {
    enqueueApproved: async (id: string) => void queued.push(`execute ${id}`),
    enqueueTry: async (id: string, attempt: number) => void queued.push(`try ${attempt} of ${id}`),
    notify: async (j: { requestId: string; kind: string }) => void queued.push(`notify ${j.kind}`),
  };
  const deps = {
    store,
    queues,
    approvers: {
      isApprover: async (u: string) => {
        if (opts.groupsDown) throw new Error('usergroups.users.list failed');
        return approvers.has(u);
      },
    },
    log: createLogger({ level: 'silent' }),
    now: () => 1,
    // No velocity limits configured, never frozen.
    controls: { voteControls: () => ({ freezeKey: 'freeze' }), freeze: async () => undefined },
    config: { controls: { velocity: [] } },
  } as unknown as Pick<AppDeps, 'store' | 'queues' | 'approvers' | 'log' | 'now' | 'controls' | 'config'>;
  return { deps, record, queued };
}

const offline = () => new Error("Stream isn't writeable and enableOfflineQueue options is false");

describe('approve', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('queues nothing beside the vote at the quorum: the vote script wakes a worker itself', async () => {
    vi.useFakeTimers();
    const w = world();
    expect(await approve(w.deps, 'R-1001', 'U1')).toEqual({ kind: 'approved', requestId: 'R-1001' });
    expect(w.queued).toEqual([]);
  });

  it('a second after the quorum, an execution not started gets a card refresh and a try of its own', async () => {
    vi.useFakeTimers();
    const waiting = world();
    await approve(waiting.deps, 'R-1001', 'U1');
    await vi.advanceTimersByTimeAsync(CARD_AFTER_QUORUM_MS - 1);
    expect(waiting.queued).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(waiting.queued).toEqual(['try 1 of R-1001.1', 'notify card']);

    const started = world();
    await approve(started.deps, 'R-1002', 'U1');
    started.record.execution = 'executing';
    await vi.advanceTimersByTimeAsync(CARD_AFTER_QUORUM_MS);
    expect(started.queued).toEqual([]);
  });

  it('one short of quorum refreshes the card at once', async () => {
    vi.useFakeTimers();
    const w = world({ required: 2 });
    expect((await approve(w.deps, 'R-1001', 'U1')).kind).toBe('voted');
    expect((await approve(w.deps, 'R-1001', 'U2')).kind).toBe('approved');
    expect(w.queued).toEqual(['notify card']);
  });

  it('refuses non-approvers and the requester, and counts one person once', async () => {
    const w = world({ required: 2, approvers: ['U0', 'U1', 'U2'] });
    expect((await approve(w.deps, 'R-1001', 'U9')).kind).toBe('not-approver');
    expect((await approve(w.deps, 'R-1001', 'U0')).kind).toBe('self');
    expect((await approve(w.deps, 'R-1001', 'U1')).kind).toBe('voted');
    expect(await approve(w.deps, 'R-1001', 'U1')).toEqual({ kind: 'duplicate', requestId: 'R-1001', remaining: 1 });
    expect((await approve(w.deps, 'R-1001', 'U2')).kind).toBe('approved');
    expect((await approve(w.deps, 'R-1001', 'U2')).kind).toBe('late');
  });

  it('says the approver check failed, not "not an approver", when the user group lookup fails', async () => {
    const w = world({ approvers: [], groupsDown: true });
    expect((await approve(w.deps, 'R-1001', 'U1')).kind).toBe('approver-check-failed');
    expect(w.record.votes).toEqual([]);
  });
});

describe('deny and cancel', () => {
  it('lets an approver deny a pending request once; a second denial is late', async () => {
    const w = world();
    expect(await deny(w.deps, 'R-1001', 'U1', 'not budgeted')).toEqual({ kind: 'denied' });
    expect(await deny(w.deps, 'R-1001', 'U2', 'again')).toEqual({ kind: 'late', requestId: 'R-1001', state: 'denied' });
  });

  it('lets only the requester cancel', async () => {
    const w = world();
    expect((await cancel(w.deps, 'R-1001', 'U1')).kind).toBe('not-requester');
    expect(await cancel(w.deps, 'R-1001', 'U0')).toEqual({ kind: 'cancelled' });
  });
});

describe('when Redis blinks after a decision is recorded', () => {
  /** What ioredis's fail-fast connection throws while Redis is away. */

  it('a denial stays a denial, and its reply is queued once Redis answers again', async () => {
    const w = world();
    let down = 1;
    const queues = w.deps.queues as { notify: (j: { requestId: string; kind: string }) => Promise<void> };
    queues.notify = async (j) => {
      if (down-- > 0) throw offline();
      w.queued.push(`notify ${j.kind}`);
    };
    expect(await deny(w.deps, 'R-1001', 'U1', 'not budgeted')).toEqual({ kind: 'denied' });
    expect(w.record.state).toBe('denied');
    await expect.poll(() => w.queued, { timeout: 3000 }).toEqual(['notify outcome']);
  });

  it('a vote Redis never took is "unavailable"', async () => {
    const v = world();
    (v.deps.store as unknown as { castVote: () => Promise<never> }).castVote = async () => {
      throw offline();
    };
    expect(await approve(v.deps, 'R-1001', 'U1')).toEqual({ kind: 'unavailable', failure: 'unreachable' });
  });
});
