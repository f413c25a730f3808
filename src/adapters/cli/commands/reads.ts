/** `rampart rate`, `lookup` and `identity get`: read-only questions to the service. */

import { quotedCurrency } from '../../../app/reads/service-reads.js';
import { BANK_CODE, NUBAN } from '../../../domain/bank-account.js';
import { maskTail } from '../../../domain/personal-data.js';
import { type Command, positionals, shorten } from '../args.js';
import { identityText, lookupText, maskedIdentity, maskedLookup, rateText } from '../format-service.js';
import { CliError, UsageError } from '../problems.js';

export const rateCommand: Command = {
  words: ['rate'],
  args: '[currency]',
  summary: 'The onramp rate of a currency (NGN, the only one, by default).',
  prepare(input) {
    const [given = 'NGN'] = positionals(input, [], ['[currency]']);
    const quoted = quotedCurrency(given);
    if (!quoted) throw new UsageError(`"${shorten(given)}" is not a currency the service quotes; the only one is NGN`);
    return async (ctx) => {
      const read = await ctx.service.rate(quoted);
      if (read.kind === 'bad-currency')
        throw new UsageError(`"${shorten(given)}" is not a currency the service quotes`);
      ctx.answer(rateText(read.currency, read.rate), { currency: read.currency, rate: read.rate });
    };
  },
};

export const lookupCommand: Command = {
  words: ['lookup'],
  args: '<bank_code> <account_number>',
  summary: 'Verify a Nigerian bank account and show its holder (account number masked).',
  prepare(input) {
    const [bankCode = '', accountNumber = ''] = positionals(input, ['<bank_code>', '<account_number>']);
    if (!BANK_CODE.test(bankCode))
      throw new UsageError(`"${shorten(bankCode)}" is not a bank code; it is 3 to 6 digits, e.g. 058`);
    if (!NUBAN.test(accountNumber)) throw new UsageError('a Nigerian account number (NUBAN) is exactly 10 digits');
    return async (ctx) => {
      const read = await ctx.service.lookup({ bankCode, accountNumber });
      if (read.kind === 'bad-input') throw new UsageError(read.problem);
      if (read.kind === 'no-account') {
        const { bankCode: code, accountNumber: number } = read.account;
        throw new CliError(
          `No account ${maskTail(number)} at bank ${code}; check both numbers with the account holder.`,
        );
      }
      ctx.answer(lookupText(read.account), maskedLookup(read.account));
    };
  },
};

export const identityGetCommand: Command = {
  words: ['identity', 'get'],
  args: '<identity_id>',
  summary: 'An identity verification record; the BVN shows its last 4 digits only.',
  prepare(input) {
    const [id = ''] = positionals(input, ['<identity_id>']);
    if (id.trim() === '') throw new UsageError('the identity id must not be empty');
    return async (ctx) => {
      const identity = await ctx.service.identity(id);
      ctx.answer(identityText(identity), maskedIdentity(identity));
    };
  },
};
