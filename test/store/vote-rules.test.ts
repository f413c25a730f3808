/**
 * The VOTE script decides the approval state, the freeze, no self-approval, not the same person
 * twice, a lookalike's confirmation and the step-up proof atomically with the vote; domain/rules/decisions.ts states the same
 * rules. Over a grid of facts, the script's answer and the domain's first broken rule agree.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { slackActor } from '../../src/domain/actor.js';
import { type VoteRuleCode, voteRule } from '../../src/domain/rules/index.js';
import type { PasskeyProof } from '../../src/domain/step-up.js';
import { RequestStore, type VoteOutcome } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-vote-rules-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
let clock = Date.now();
const store = new RequestStore(redis, prefix, () => clock);
const freezeKey = `${prefix}:grid-freeze`;
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

/** The script's answer as the rule's stable code; a counted vote is allowed. */
const SCRIPT_CODES: Partial<Record<VoteOutcome, VoteRuleCode>> = {
  missing: 'missing',
  not_pending: 'not_pending',
  expired: 'expired',
  frozen: 'frozen',
  self: 'self_approval',
  duplicate: 'duplicate_vote',
  step_up: 'step_up_required',
  unconfirmed: 'lookalike_unconfirmed',
};

// Only its presence matters to the script: the web side verified it before the vote.
const proof = { credentialId: 'c', challenge: { approvalId: 'x' } } as unknown as PasskeyProof;
const REQUESTER = 'U0GRIDREQ';
const EARLIER = 'U0GRIDEARLY';

it('answers every vote as the domain rules do, over state, expiry, freeze, who votes, a lookalike and step-up', async () => {
  let cases = 0;
  for (const state of ['pending', 'denied'] as const)
    for (const expired of [false, true])
      for (const frozen of [false, true])
        for (const who of ['fresh', 'requester', 'earlier'] as const)
          for (const stepUp of [false, true])
            for (const withPasskey of [false, true])
              for (const [lookalike, warningsChecked] of [
                [false, false],
                [true, false],
                [true, true],
              ] as const) {
                clock = Date.now();
                const fresh = buildFreshRequest(await store.nextId(), {
                  requester: REQUESTER,
                  requiredApprovals: 3,
                  expiresAt: clock + 60_000,
                  ...(stepUp ? { stepUp: true } : {}),
                });
                // A payment to a lookalike: the create script marks it, the vote script reads the mark.
                const r = lookalike
                  ? {
                      ...fresh,
                      display: { ...fresh.display, lookalike: { of: 'paid before', ofAddress: '0x99ed…edcf' } },
                    }
                  : fresh;
                expect((await store.create(r)).outcome).toBe('created');
                expect((await store.castVote(r.id, EARLIER, undefined, proof, true)).outcome).toBe('voted');
                if (state === 'denied') await store.decide(r.id, 'denied', { event: 'denied', by: EARLIER });
                if (expired) clock += 120_000;
                if (frozen) await redis.set(freezeKey, '1');
                else await redis.del(freezeKey);
                const voter = who === 'requester' ? REQUESTER : who === 'earlier' ? EARLIER : `U0GRID${++cases}`;
                const answer = await store.castVote(
                  r.id,
                  voter,
                  { freezeKey },
                  withPasskey ? proof : undefined,
                  warningsChecked,
                );
                const domain = voteRule(
                  slackActor(voter),
                  {
                    state,
                    expiresAt: r.expiresAt,
                    frozen,
                    requester: REQUESTER,
                    voters: [EARLIER],
                    stepUp,
                    withPasskey,
                    lookalike,
                    warningsChecked,
                  },
                  clock,
                );
                const script = SCRIPT_CODES[answer.outcome];
                const facts = JSON.stringify({
                  state,
                  expired,
                  frozen,
                  who,
                  stepUp,
                  withPasskey,
                  lookalike,
                  warningsChecked,
                });
                expect(script ? { ok: false, code: script } : { ok: true }, facts).toEqual(domain);
              }
  await redis.del(freezeKey);
});
