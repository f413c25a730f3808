/** `rampart wallet` and `rampart balances`: one wallet, by configured alias or service id. */
import type { UnknownWallet } from '../../../app/reads.js';
import { clean } from '../../../presenters/describe-error.js';
import { type Command, positionals } from '../args.js';
import { balancesText, walletText } from '../format-service.js';
import { CliError } from '../problems.js';

type Found<T> = { kind: 'found'; alias: string | undefined; id: string; data: T };

/** A 404 for a name that is no alias is most likely a typo: say which aliases exist. */
function found<T>(read: Found<T> | UnknownWallet): Found<T> {
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
      const { alias, data } = found(await ctx.service.wallet(target));
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
      const { alias, id, data } = found(await ctx.service.balances(target));
      ctx.answer(balancesText(alias, id, data), data);
    };
  },
};
