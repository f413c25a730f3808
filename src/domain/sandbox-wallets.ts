/**
 * The built-in sandbox's wallets, alias → id: the WALLETS Rampart uses when none is set (the
 * README's first command runs on the sandbox). src/sandbox/seed.ts holds the rest of each wallet;
 * config reads only this, so loading settings never loads the sandbox.
 */
export const SANDBOX_WALLET_IDS = {
  ops: 'wal_ops_7f3a',
  treasury: 'wal_treasury_91c2',
  payroll: 'wal_payroll_44d0',
  legacy: 'wal_legacy_0b19',
} as const;

/** `ops=wal_ops_7f3a,...`: the WALLETS value Rampart uses on the sandbox by default. */
export const sandboxWalletsSetting = (): string =>
  Object.entries(SANDBOX_WALLET_IDS)
    .map(([alias, id]) => `${alias}=${id}`)
    .join(',');
