/** Which wallet a person means: a configured alias (any case) or a service wallet id. */
export interface WalletAlias {
  alias: string;
  id: string;
}

export function resolveWallet(
  wallets: readonly WalletAlias[],
  text: string,
): { alias: string | undefined; id: string } {
  const wanted = text.trim();
  const byAlias = wallets.find((w) => w.alias === wanted.toLowerCase());
  if (byAlias) return byAlias;
  return { alias: wallets.find((w) => w.id === wanted)?.alias, id: wanted };
}
