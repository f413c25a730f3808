import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { sandboxWalletsSetting } from '../../../src/domain/sandbox-wallets.js';
import { SEED_WALLETS } from '../../../src/sandbox/seed.js';

describe('the sandbox wallets config defaults to (config no longer loads the sandbox)', () => {
  it('names every seeded wallet, alias and id, in the seed order', () => {
    expect(sandboxWalletsSetting()).toBe(SEED_WALLETS.map((w) => `${w.alias}=${w.id}`).join(','));
  });

  it('is what an unset WALLETS means', () => {
    const config = loadConfig({});
    expect(config.wallets.map((w) => `${w.alias}=${w.id}`).join(',')).toBe(sandboxWalletsSetting());
  });
});
