/** `rampart wallet` and `rampart balances`: one wallet, by configured alias or service id. */
import { readWalletPart } from '../../app/reads.js';
import { clean } from '../../presenters/describe-error.js';
import { type Command, positionals } from '../args.js';
import type { Context } from '../context.js';
import { balancesText, walletText } from '../format-service.js';
import { CliError } from '../problems.js';

/** A 404 for a name that is no alias is most likely a typo: say which aliases exist. */
async function fetchFor<T>(ctx: Context, target: string, fetch: (id: string) => Promise<T>) {
  const read = await readWalletPart(ctx.config, target, fetch);
  if (read.kind === 'unknown-wallet') {
    throw new CliError(
      `"${clean(read.id)}" is neither a configured wallet (${read.aliases.join(', ')}) nor a wallet id the service knows; check the spelling.`,
    );
  }
  return read;
}

export const walletCommand: Command = {
  words: ['wallet'],
  args: '<alias|id>',
  summary: 'One wallet: active or not, addresses, transfer/swap/offramp capabilities.',
  prepare(input) {
    const [target = ''] = positionals(input, ['<alias|id>']);
    return async (ctx) => {
      const service = await ctx.service();
      const { alias, data } = await fetchFor(ctx, target, (id) => service.getWallet(id));
      ctx.answer(walletText(alias, data), data);
    };
  },
};

export const balancesCommand: Command = {
  words: ['balances'],
  args: '<alias|id>',
  summary: 'Balances of one wallet per asset: balance, available, debt.',
  prepare(input) {
    const [target = ''] = positionals(input, ['<alias|id>']);
    return async (ctx) => {
      const service = await ctx.service();
      const { alias, id, data } = await fetchFor(ctx, target, (walletId) => service.getBalances(walletId));
      ctx.answer(balancesText(alias, id, data), data);
    };
  },
};
