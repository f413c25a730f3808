/** `rampart rate`, `lookup` and `identity get`: read-only questions to the service. */

import { maskTail } from '../../domain/personal-data.js';
import { isServiceError } from '../../service/errors.js';
import { currency as currencySchema, currencyWireForm } from '../../service/schemas.js';
import { type Command, positionals, shorten } from '../args.js';
import { identityText, lookupText, maskedIdentity, maskedLookup, rateText } from '../format-service.js';
import { CliError, UsageError } from '../problems.js';

export const rateCommand: Command = {
  words: ['rate'],
  args: '[currency]',
  summary: 'The onramp rate of a currency (NGN, the only one, by default).',
  prepare(input) {
    const [given = 'NGN'] = positionals(input, [], ['[currency]']);
    const parsed = currencySchema.safeParse(given);
    if (!parsed.success)
      throw new UsageError(`"${shorten(given)}" is not a currency the service quotes; the only one is NGN`);
    const currency = parsed.data;
    return async (ctx) => {
      const { rate } = await (await ctx.service()).getOnrampRate(currency);
      ctx.answer(rateText(currency, rate), { currency, rate });
    };
  },
};

export const lookupCommand: Command = {
  words: ['lookup'],
  args: '<bank_code> <account_number>',
  summary: 'Verify a Nigerian bank account and show its holder (account number masked).',
  prepare(input) {
    const [bankCode = '', accountNumber = ''] = positionals(input, ['<bank_code>', '<account_number>']);
    if (!/^\d{3,6}$/.test(bankCode))
      throw new UsageError(`"${shorten(bankCode)}" is not a bank code; it is 3 to 6 digits, e.g. 058`);
    if (!/^\d{10}$/.test(accountNumber)) {
      throw new UsageError('a Nigerian account number (NUBAN) is exactly 10 digits');
    }
    return async (ctx) => {
      const service = await ctx.service();
      try {
        const found = await service.lookupAccount({
          bank_code: bankCode,
          account_number: accountNumber,
          currency: currencyWireForm('NGN'),
        });
        ctx.answer(lookupText(found), maskedLookup(found));
      } catch (err) {
        if (isServiceError(err) && err.status === 404) {
          throw new CliError(
            `No account ${maskTail(accountNumber)} at bank ${bankCode}; check both numbers with the account holder.`,
          );
        }
        throw err;
      }
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
      const identity = await (await ctx.service()).getIdentity(id);
      ctx.answer(identityText(identity), maskedIdentity(identity));
    };
  },
};
