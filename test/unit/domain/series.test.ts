import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../src/domain/api-key.js';
import {
  runFundsRule,
  runKeyRule,
  runRecheckRule,
  runRecheckSentence,
  type SeriesSubject,
  seriesKeyRefusal,
  seriesPolicyRule,
  seriesStepUpRule,
} from '../../../src/domain/rules/series.js';
import { sealSchedule } from '../../../src/domain/schedule.js';
import { isSeriesId, runKey, seriesIdOf, seriesSentence, seriesTotal } from '../../../src/domain/series.js';

const NOW = Date.UTC(2026, 10, 28, 12);
const usdc = (whole: number) => ({ units: BigInt(whole) * 1_000_000n, decimals: 6 });
const subject = (perRun: number, runs: number): SeriesSubject => ({
  kind: 'transfer',
  wallet: 'ops',
  asset: 'base:usdc',
  assetCode: 'USDC',
  perRun: usdc(perRun),
  runs,
  newDestination: false,
});
const key = (scopes: ApiKey['scopes'], limits: Partial<ApiKey['limits']> = {}): ApiKey => ({
  id: 'k1',
  name: 'erp',
  owner: 'U1',
  scopes,
  limits: { maxOpen: 20, allowNewDestinations: false, ...limits },
  createdAt: NOW - 1000,
  expiresAt: undefined,
  revokedAt: undefined,
  lastUsedAt: undefined,
});

describe('a series’ ids', () => {
  it('has ids S-<n> and claims run k under the key S-n:k, which is never an id', () => {
    expect(seriesIdOf(7)).toBe('S-7');
    expect(isSeriesId('S-7')).toBe(true);
    expect(isSeriesId('R-7')).toBe(false);
    expect(isSeriesId('S-7:1')).toBe(false);
    expect(runKey('S-7', 3)).toBe('S-7:3');
    expect(() => runKey('S-7', 0)).toThrow();
    expect(() => runKey('R-7', 1)).toThrow();
  });
});

describe('the series card', () => {
  it('says the schedule, the runs, each amount, the total and the first run in one line', () => {
    const sealed = sealSchedule(
      { every: { unit: 'month', day: 1 }, at: '09:00', zone: 'Africa/Lagos', ends: { after: 12 } },
      { minIntervalMs: 86_400_000, maxRuns: 60, maxAheadMs: 400 * 86_400_000 },
      NOW,
    );
    if (!sealed.ok) throw new Error(sealed.message);
    expect(
      seriesSentence({ schedule: sealed.schedule, perRun: usdc(1200), assetCode: 'USDC', to: 'Acme payroll wallet' }),
    ).toBe(
      'Monthly on the 1st at 09:00 Africa/Lagos, 12 runs, 1,200.00 USDC each to Acme payroll wallet, 14,400.00 in all; first run 2026-12-01',
    );
    expect(seriesTotal(usdc(5000), 12)).toEqual(usdc(60_000));
  });
});

describe('the amount rules judge the series’ total', () => {
  it('a key with --max-amount 5000 cannot create a 12 × 5,000 series, and needs schedules:create', () => {
    const limited = key(['requests:create', 'schedules:create'], { maxAmount: '5000' });
    expect(seriesKeyRefusal(limited, subject(5000, 12), NOW)).toEqual({
      code: 'amount_over_key_limit',
      field: 'amount',
      message:
        'API key erp may request at most 5000 per request, and a series is judged on its total (12 runs, 60000 in all); make fewer runs or ask an approver to request it in Slack.',
    });
    expect(seriesKeyRefusal(limited, subject(2500, 2), NOW)).toBeUndefined();
    expect(seriesKeyRefusal(key(['requests:create']), subject(10, 2), NOW)).toMatchObject({ code: 'missing_scope' });
  });

  it('a key with --max-amount refuses an "entire balance" series up front: it has no total to judge', () => {
    const entire = { ...subject(1, 12), perRun: undefined };
    expect(seriesKeyRefusal(key(['schedules:create'], { maxAmount: '5000' }), entire, NOW)).toEqual({
      code: 'amount_over_key_limit',
      field: 'amount',
      message:
        'API key erp may request at most 5000 per request, and a series is judged on its total, which "entire balance" does not have; send an exact amount per run.',
    });
    // A key without --max-amount has no amount to judge; the submission refuses it for itself.
    expect(seriesKeyRefusal(key(['schedules:create']), entire, NOW)).toBeUndefined();
  });

  it('the policy tier and step-up compare the total, not one run', () => {
    const policy = { approvalsRequired: 1, twoApprovalsAbove: { USDC: '10000' } };
    expect(seriesPolicyRule(policy, subject(1000, 12))).toMatchObject({ ok: true, required: 2 });
    expect(seriesPolicyRule(policy, subject(1000, 10))).toMatchObject({ ok: true, required: 1 });
    const stepUp = { above: { USDC: '10000' }, newDestination: false };
    expect(seriesStepUpRule(stepUp, subject(1000, 12))).toEqual({ ok: false, code: 'step_up_required' });
    expect(seriesStepUpRule(stepUp, subject(1000, 10))).toEqual({ ok: true });
  });
});

describe('runRecheckRule: each run under today’s rules', () => {
  const got = { required: 1, stepUp: false, delayed: false };
  const everyone = { requesterEligible: true, approversEligible: [true, false] };
  const today = (over: Partial<typeof got> = {}, keyAllows = true) => ({ ...got, ...over, keyAllows });

  it('allows a run when nothing is stricter and someone who approved is still eligible', () => {
    expect(runRecheckRule(got, today(), everyone)).toEqual({ ok: true });
    expect(runRecheckRule({ ...got, required: 2 }, today(), everyone)).toEqual({ ok: true });
  });

  it('skips and pauses on each stricter rule or lost eligibility, with its own code', () => {
    expect(runRecheckRule(got, today({ required: 2 }), everyone)).toEqual({ ok: false, code: 'more_approvals' });
    expect(runRecheckRule(got, today({ stepUp: true }), everyone)).toEqual({ ok: false, code: 'passkey_needed' });
    expect(runRecheckRule(got, today({ delayed: true }), everyone)).toEqual({ ok: false, code: 'delay_needed' });
    expect(runRecheckRule(got, today({}, false), everyone)).toEqual({ ok: false, code: 'key_limit' });
    expect(runRecheckRule(got, today(), { ...everyone, requesterEligible: false })).toEqual({
      ok: false,
      code: 'requester_not_eligible',
    });
    expect(runRecheckRule(got, today(), { requesterEligible: true, approversEligible: [false, false] })).toEqual({
      ok: false,
      code: 'no_approver_eligible',
    });
  });
});

describe('runKeyRule and the sentence a refused run is skipped with', () => {
  const scoped = (limits: Partial<ApiKey['limits']> = {}, over: Partial<ApiKey> = {}) => ({
    ...key(['schedules:create'], limits),
    ...over,
  });
  const said = (k: ApiKey | undefined) => {
    const r = runKeyRule('ops-bot', k, subject(1_000, 12), NOW);
    return r.ok ? 'ok' : r.message;
  };

  it("names what changed in the key: gone, revoked, expired, its scope, its limits on the series' total", () => {
    expect(said(scoped({ maxAmount: '12000' }))).toBe('ok');
    expect(said(undefined)).toBe('API key ops-bot no longer exists');
    expect(said(scoped({}, { revokedAt: NOW - 1 }))).toBe('API key ops-bot was revoked');
    expect(said(scoped({}, { expiresAt: NOW }))).toBe('API key ops-bot has expired');
    expect(said(key(['requests:create']))).toBe('API key ops-bot no longer has the schedules:create scope');
    expect(said(scoped({ maxAmount: '1000' }))).toBe("API key ops-bot's --max-amount is now 1,000");
    expect(said(scoped({ wallets: ['treasury'] }))).toBe('API key ops-bot no longer covers wallet ops');
    expect(said(scoped({ assets: ['solana:usdc'] }))).toBe('API key ops-bot no longer covers base:usdc');
  });

  it('says which setting asks more of the series', () => {
    const facts = {
      policy: { approvalsRequired: 1, twoApprovalsAbove: { USDC: '1000' } },
      assetCode: 'USDC',
      required: 2,
      requester: 'U1',
    };
    expect(runRecheckSentence('more_approvals', facts)).toBe(
      'needs a fresh approval: TWO_APPROVALS_ABOVE is now 1,000 USDC',
    );
    expect(
      runRecheckSentence('more_approvals', {
        ...facts,
        policy: { approvalsRequired: 2, twoApprovalsAbove: undefined },
      }),
    ).toBe('needs a fresh approval: APPROVALS_REQUIRED is now 2');
    expect(runRecheckSentence('key_limit', { ...facts, key: "API key ops-bot's --max-amount is now 1,000" })).toBe(
      "needs a fresh approval: API key ops-bot's --max-amount is now 1,000",
    );
    expect(runRecheckSentence('no_approver_eligible', facts)).toBe(
      'needs a fresh approval: no one who approved it is still an approver',
    );
  });
});

describe('runFundsRule: the balance less what approved payments not yet sent commit', () => {
  const s = { wallet: 'ops', asset: 'base:usdc', assetCode: 'USDC', perRun: usdc(100) };
  const balances = [{ id: 'base:usdc', available: 250 }];

  it('covers a run the balance left after the commitments covers, and names them when it does not', () => {
    expect(runFundsRule(s, balances)).toEqual({ ok: true });
    expect(runFundsRule(s, balances, [{ id: 'R-7', units: usdc(150).units, status: 'waiting' }])).toEqual({ ok: true });
    expect(runFundsRule(s, balances, [{ id: 'R-7', units: usdc(151).units, status: 'waiting' }])).toEqual({
      ok: false,
      code: 'run_unfunded',
      message:
        "wallet ops has 250.00 USDC available and 151.00 USDC of it committed to approved payments not yet sent (R-7), leaving less than the run's 100.00 USDC; nothing was sent for this run",
    });
  });
});
