/**
 * The read-only answers behind /balance, /rate and /lookup, shared by the commands and the
 * "Share in channel" button: the use cases of app/reads.ts (deps.app.reads), phrased as Block Kit. Input problems
 * throw InputError with the sentence to show.
 */

import { describeError } from '../../app/describe-error.js';
import type { UnknownWallet } from '../../app/reads.js';
import { maskTail } from '../../domain/personal-data.js';
import { InputError } from '../../errors.js';
import { clean } from '../../presenters/describe-error.js';
import { balanceBlocks } from './blocks/balance.js';
import type { Blocks } from './blocks/common.js';
import { lookupBlocks, rateBlocks } from './blocks/rate.js';
import type { Deps } from './deps.js';

type AnswerDeps = Pick<Deps, 'app' | 'now'>;

/** The service's own words on a refusal, for the sentence a person reads (4xx with its message). */
const serviceSaid = (message: string | undefined): string => (message ? ` (the service said “${clean(message)}”)` : '');

export const unknownWalletText = (w: UnknownWallet): string =>
  `"${clean(w.id)}" is neither a configured wallet (${w.aliases.join(', ')}) nor a wallet id the service knows${serviceSaid(w.serviceMessage)}; check the spelling.`;

const words = (args: string) => args.trim().split(/\s+/).filter(Boolean);

export async function balanceAnswer(deps: AnswerDeps, args: string): Promise<Blocks> {
  const read = await deps.app.reads.balances(words(args));
  if (read.kind === 'too-many') throw new InputError(read.problem);
  if (read.kind === 'unknown-wallet') throw new InputError(unknownWalletText(read));
  const failures = read.failures.map((f) => ({ alias: f.alias, message: describeError(f.error) }));
  return balanceBlocks(read.views, deps.now(), failures);
}

export async function rateAnswer(deps: AnswerDeps, args: string): Promise<Blocks> {
  const given = words(args);
  if (given.length > 1) throw new InputError('Give one currency at most.');
  const read = await deps.app.reads.rate(given[0]);
  if (read.kind === 'bad-currency')
    throw new InputError(`"${clean(read.given)}" is not a currency the service quotes; the only one is NGN.`);
  return rateBlocks(read.currency, read.rate, deps.now());
}

export async function lookupAnswer(deps: AnswerDeps, args: string): Promise<Blocks> {
  const read = await deps.app.reads.lookup(args);
  if (read.kind === 'bad-input') throw new InputError(read.problem);
  if (read.kind === 'no-account') {
    const { bankCode, accountNumber } = read.account;
    throw new InputError(
      `No account ${maskTail(accountNumber)} at bank ${bankCode}${serviceSaid(read.serviceMessage)}; check both numbers with the account holder.`,
    );
  }
  return lookupBlocks(read.account);
}

export const ANSWERS = { balance: balanceAnswer, rate: rateAnswer, lookup: lookupAnswer } as const;
export type ShareableCommand = keyof typeof ANSWERS;
