/**
 * The sandbox's seeded world: wallets, balances, bank accounts and the rate. Plain data, so
 * config (default WALLETS), tests and the CLI banner can name the same things.
 */
import type { AssetId, ChainId, TokenId } from '../domain/assets.js';
import { SANDBOX_WALLET_IDS } from '../domain/sandbox-wallets.js';

export interface SeedBalance {
  asset: AssetId;
  balance: number;
  available: number;
  debt: number;
}

export interface SeedWallet {
  alias: string;
  id: string;
  reference: string;
  isActive: boolean;
  evm: string;
  svm: string;
  transfer: boolean;
  swap: boolean;
  offramp: boolean;
  balances: SeedBalance[];
}

export const SEED_WALLETS: readonly SeedWallet[] = [
  {
    alias: 'ops',
    id: SANDBOX_WALLET_IDS.ops,
    reference: 'ops-hot-wallet',
    isActive: true,
    evm: '0x6Be7E73f4A1264E8EF4C486e42C78f33D5Dc5344',
    svm: 'CinVW8Y4g8PeYfQva7fwvzTi8yR9jKTpHCDMXXPUYS4E',
    transfer: true,
    swap: true,
    offramp: true,
    balances: [
      { asset: 'base:usdc', balance: 125_400.5, available: 120_000.5, debt: 0 },
      { asset: 'solana:usdc', balance: 48_250, available: 48_250, debt: 0 },
      { asset: 'ethereum:usdt', balance: 30_000, available: 29_500.25, debt: 0 },
      { asset: 'bsc:cngn', balance: 15_000_000, available: 14_000_000, debt: 250_000 },
    ],
  },
  {
    alias: 'treasury',
    id: SANDBOX_WALLET_IDS.treasury,
    reference: 'treasury-main',
    isActive: true,
    evm: '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68',
    svm: '6hZ4tRpFc5fpPE7fsTyFuYCyggoMuL648pqMdynMcuiP',
    transfer: true,
    swap: false,
    offramp: true,
    balances: [
      { asset: 'ethereum:usdc', balance: 2_500_000, available: 2_400_000, debt: 0 },
      { asset: 'arbitrum:usdt', balance: 750_000, available: 750_000, debt: 0 },
      { asset: 'base:cngn', balance: 80_000_000, available: 80_000_000, debt: 0 },
    ],
  },
  {
    alias: 'payroll',
    id: SANDBOX_WALLET_IDS.payroll,
    reference: 'payroll',
    isActive: true,
    evm: '0xea5bAa6cb6bE32Dd54E90E3969BeA051cc6d903c',
    svm: '2zcgvLno7fWqF3A3ogYx5FY7kGW7RVQrwPeMdFEYvVcq',
    transfer: false,
    swap: false,
    offramp: true,
    balances: [{ asset: 'polygon:usdc', balance: 90_000, available: 90_000, debt: 0 }],
  },
  {
    alias: 'legacy',
    id: SANDBOX_WALLET_IDS.legacy,
    reference: 'legacy-2023',
    isActive: false,
    evm: '0x4405a4e131d739B246cDbD9E9Be4db40ea3324eC',
    svm: 'AWqMBvGn9hWKXQFrp34i1DBoMa3GTBihesiHWVVwg9XK',
    transfer: true,
    swap: false,
    offramp: false,
    balances: [{ asset: 'optimism:usdc', balance: 1_200, available: 1_200, debt: 0 }],
  },
];

export interface SeedAccount {
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
}

export const SEED_ACCOUNTS: readonly SeedAccount[] = [
  { bankCode: '058', bankName: 'Guaranty Trust Bank', accountNumber: '0123456789', accountName: 'ADAEZE OKAFOR' },
  { bankCode: '044', bankName: 'Access Bank', accountNumber: '1234567890', accountName: 'LAGOS LOGISTICS LTD' },
  { bankCode: '057', bankName: 'Zenith Bank', accountNumber: '2233445566', accountName: 'CHINEDU BELLO' },
];

export const SEED_RATES: Readonly<Record<string, number>> = { NGN: 1_532.75 };

// spec 2.4 `blockchain.id`: EVM chain ids; Solana has none, 101 is its mainnet cluster id.
export const CHAIN_NUMBERS: Readonly<Record<ChainId, number>> = {
  ethereum: 1,
  base: 8453,
  arbitrum: 42161,
  bsc: 56,
  polygon: 137,
  optimism: 10,
  avalanche: 43114,
  solana: 101,
};

// spec 2.4 `name` of a balance entry.
export const TOKEN_NAMES: Readonly<Record<TokenId, string>> = {
  usdc: 'USD Coin',
  usdt: 'Tether USD',
  cngn: 'Compliant Naira',
};
