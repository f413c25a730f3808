import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { parseAmount } from '../../../src/domain/amount.js';
import { cancelWindowMs, runAtOf, timingOf } from '../../../src/domain/timing.js';
import { ConfigError } from '../../../src/errors.js';

const settings = { delayMs: 30_000, above: { USDC: '1000' }, newDestination: false, entireBalance: false };
const usdc = (text: string) => ({ assetCode: 'USDC', amount: parseAmount(text, 6) });

describe('the cancel window decided at submission', () => {
  it('DELAY_ABOVE picks an amount above its threshold, not one at or under it', () => {
    expect(cancelWindowMs(settings, { ...usdc('5000'), newDestination: false, entireBalance: false })).toBe(30_000);
    expect(cancelWindowMs(settings, { ...usdc('1000'), newDestination: false, entireBalance: false })).toBeUndefined();
    expect(cancelWindowMs(settings, { ...usdc('100'), newDestination: false, entireBalance: false })).toBeUndefined();
  });

  it('an asset DELAY_ABOVE does not name gets the window at every amount, as STEP_UP_ABOVE reads', () => {
    const cngn = { assetCode: 'CNGN', amount: parseAmount('1', 6), newDestination: false, entireBalance: false };
    expect(cancelWindowMs(settings, cngn)).toBe(30_000);
  });

  it('DELAY_NEW_DESTINATION and DELAY_ENTIRE_BALANCE pick only when on; by default nothing is picked', () => {
    const none = { delayMs: 30_000, above: undefined, newDestination: false, entireBalance: false };
    const subject = { ...usdc('1'), newDestination: true, entireBalance: true };
    expect(cancelWindowMs(none, subject)).toBeUndefined();
    expect(cancelWindowMs({ ...none, newDestination: true }, subject)).toBe(30_000);
    expect(cancelWindowMs({ ...none, entireBalance: true }, subject)).toBe(30_000);
  });

  it('seals the window and a set time together, and nothing when neither applies', () => {
    expect(timingOf(undefined)).toBeUndefined();
    expect(timingOf(5_000)).toEqual({ delayMs: 5_000 });
    expect(timingOf(undefined, { at: 42, zone: 'UTC' })).toEqual({ notBefore: 42, zone: 'UTC' });
  });

  it('runs at its runAt once approved, before that at the time it was set for, else none', () => {
    expect(runAtOf({ runAt: 2_000, sealed: { timing: { notBefore: 1_000 } } })).toBe(2_000);
    expect(runAtOf({ sealed: { timing: { notBefore: 1_000 } } })).toBe(1_000);
    expect(runAtOf({ sealed: { timing: {} } })).toBeUndefined();
    expect(runAtOf({ sealed: {} })).toBeUndefined();
  });
});

describe('DELAY against BATCH_HOLD_LIMIT at start-up', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ NODE_ENV: 'test', ...env });
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
  };

  it('refuses a window as long as the hold limit, with a sentence naming both', () => {
    expect(problems({ DELAY: '24h' })).toContainEqual(
      expect.stringContaining('DELAY (24h) must be shorter than BATCH_HOLD_LIMIT (24h)'),
    );
    expect(problems({ DELAY: '2h', BATCH_HOLD_LIMIT: '1h' })).toHaveLength(1);
    expect(problems({ DELAY: '3s' })).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'test' }).time.delayMs).toBe(3_600_000);
  });
});
