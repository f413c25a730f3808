export type { FailOptions, FaultBody } from './faults.js';
export { SandboxFaults } from './faults.js';
export { SEED_ACCOUNTS, SEED_RATES, SEED_WALLETS, type SeedAccount, type SeedWallet } from './seed.js';
export { type Sandbox, type SandboxOptions, startSandbox } from './server.js';
export type {
  BeneficiaryRecord,
  Holding,
  IdentityRecord,
  ReceivedRequest,
  SandboxSeed,
  WalletRecord,
} from './state.js';
export { Refusal, SandboxState } from './state.js';
