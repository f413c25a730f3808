/**
 * Chains and assets of spec 2.2. The 17 identifiers are the whole list: anything else
 * (ethereum:cngn, base:usdt, ...) is refused.
 */
export const CHAINS = {
  ethereum: { kind: 'evm', name: 'Ethereum', explorer: 'https://etherscan.io' },
  base: { kind: 'evm', name: 'Base', explorer: 'https://basescan.org' },
  arbitrum: { kind: 'evm', name: 'Arbitrum', explorer: 'https://arbiscan.io' },
  bsc: { kind: 'evm', name: 'BNB Smart Chain', explorer: 'https://bscscan.com' },
  polygon: { kind: 'evm', name: 'Polygon', explorer: 'https://polygonscan.com' },
  optimism: { kind: 'evm', name: 'Optimism', explorer: 'https://optimistic.etherscan.io' },
  avalanche: { kind: 'evm', name: 'Avalanche', explorer: 'https://snowtrace.io' },
  solana: { kind: 'svm', name: 'Solana', explorer: 'https://solscan.io' },
} as const;

export type ChainId = keyof typeof CHAINS;
export type ChainKind = (typeof CHAINS)[ChainId]['kind'];

export const TOKENS = {
  usdc: { code: 'USDC', decimals: 6 },
  usdt: { code: 'USDT', decimals: 6 },
  cngn: { code: 'cNGN', decimals: 6 },
} as const;

export type TokenId = keyof typeof TOKENS;

// spec 2.2: the allowed values, in the spec's order.
export const ASSET_IDS = [
  'ethereum:usdc',
  'base:usdc',
  'arbitrum:usdc',
  'solana:usdc',
  'bsc:usdc',
  'polygon:usdc',
  'optimism:usdc',
  'avalanche:usdc',
  'ethereum:usdt',
  'arbitrum:usdt',
  'solana:usdt',
  'polygon:usdt',
  'bsc:usdt',
  'optimism:usdt',
  'avalanche:usdt',
  'base:cngn',
  'bsc:cngn',
] as const;

export type AssetId = (typeof ASSET_IDS)[number];

export interface Asset {
  id: AssetId;
  chain: ChainId;
  token: TokenId;
  code: string;
  decimals: number;
}

const assetSet: ReadonlySet<string> = new Set(ASSET_IDS);

export const isAssetId = (value: string): value is AssetId => assetSet.has(value);

export function assetInfo(id: AssetId): Asset {
  const [chain, token] = id.split(':') as [ChainId, TokenId];
  return { id, chain, token, code: TOKENS[token].code, decimals: TOKENS[token].decimals };
}

/** Accepts any case and surrounding blanks from users; returns undefined for a pair the spec does not list. */
export function parseAssetId(input: string): AssetId | undefined {
  const normalised = input.trim().toLowerCase();
  return isAssetId(normalised) ? normalised : undefined;
}

// Encoded: an address or hash from the service must not change the URL's shape (a seam where service data enters).
export const explorerAddressUrl = (chain: ChainId, address: string): string =>
  `${CHAINS[chain].explorer}/${chain === 'solana' ? 'account' : 'address'}/${encodeURIComponent(address)}`;

export const explorerTxUrl = (chain: ChainId, hash: string): string =>
  `${CHAINS[chain].explorer}/tx/${encodeURIComponent(hash)}`;

/** Human description of why an asset id is refused, naming what to do. */
export function describeUnknownAsset(input: string): string {
  const [chain, token] = input.trim().toLowerCase().split(':');
  if (chain && token && chain in CHAINS && token in TOKENS) {
    const chains = ASSET_IDS.filter((a) => a.endsWith(`:${token}`)).map((a) => a.split(':')[0]);
    return `${TOKENS[token as TokenId].code} is not available on ${chain}; use one of ${chains.join(', ')}.`;
  }
  return `"${input.trim()}" is not an asset Rampart knows; use chain:token, e.g. base:usdc.`;
}
