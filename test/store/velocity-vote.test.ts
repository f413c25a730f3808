/**
 * At the quorum the VOTE script counts the request against each velocity limit in the same step
 * as the vote; domain/rules velocityRule states the rule. Over a grid of what the window already
 * holds, the request's amount and the limit, the script's answer and the rule agree.
 */
import { expect, it } from 'vitest';
import { velocityRule } from '../../src/domain/rules/index.js';
import type { VelocityRule } from '../../src/domain/velocity.js';
import { RequestStore, type VoteControls } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('velocity-vote');
const store = new RequestStore(redis, prefix);

const WINDOW = 3_600_000;
const rule = (limit: bigint): VelocityRule => ({
  wallet: 'ops',
  code: 'USDC',
  limit,
  decimals: 6,
  windowMs: WINDOW,
  windowLabel: '1 h',
  text: `ops:USDC=${limit}/1h`,
});

let ledgers = 0;
/** A request's vote controls against its own ledger, counting `units` under `limit`. */
const controls = (ledger: number, units: bigint, limit: bigint): VoteControls => ({
  freezeKey: `${prefix}:no-freeze`,
  velocity: {
    ledgerPrefix: `${prefix}:ledger:${ledger}:`,
    retentionMs: WINDOW,
    rules: [{ wallet: 'ops', code: 'USDC', limit, windowMs: WINDOW }],
    subject: { walletId: 'wal_ops', walletAlias: 'ops', code: 'USDC', decimals: 6, units },
  },
});

async function approvedWith(c: VoteControls) {
  const r = buildFreshRequest(await store.nextId(), { requester: 'U0VELREQ', requiredApprovals: 1 });
  await store.create(r);
  return store.castVote(r.id, 'U0VELAPPROVER', c);
}

it('refuses at the quorum exactly when the domain rule does, over used, amount and limit', async () => {
  for (const limit of [100n, 150n])
    for (const used of [0n, 40n, 60n, 100n])
      for (const units of [1n, 40n, 60n]) {
        const ledger = ++ledgers;
        if (used > 0n) expect((await approvedWith(controls(ledger, used, 1_000n))).outcome).toBe('approved');
        const answer = await approvedWith(controls(ledger, units, limit));
        const domain = velocityRule([{ rule: rule(limit), used }], units);
        const facts = `limit ${limit}, used ${used}, units ${units}`;
        expect(answer.outcome === 'over_limit' ? 'over_limit' : answer.outcome, facts).toBe(
          domain.ok ? 'approved' : domain.code,
        );
      }
});
