/**
 * The read-only answers behind /balance, /rate and /lookup, shared by the commands and the
 * "Share in channel" button. Input problems throw InputError with the sentence to show.
 */
import { resolveWallet } from '../domain/wallets.js';
import { InputError } from '../errors.js';
import { isServiceError } from '../service/errors.js';
import { currency as currencySchema } from '../service/schemas.js';
import { balanceBlocks, type WalletView } from './blocks/balance.js';
import type { Blocks } from './blocks/common.js';
import { lookupBlocks, rateBlocks } from './blocks/rate.js';
import type { Deps } from './deps.js';
import { clean, describeError } from './describe-error.js';

type AnswerDeps = Pick<Deps, 'config' | 'service' | 'now'>;

/** The service's own words on a refusal, for the sentence a person reads (issue 3: 4xx with its message). */
const serviceSaid = (err: { serviceMessage: string | undefined }): string =>
  err.serviceMessage ? ` (the service said “${clean(err.serviceMessage)}”)` : '';

async function walletView(deps: AnswerDeps, alias: string | undefined, id: string): Promise<WalletView> {
  const [wallet, balances] = await Promise.all([deps.service.getWallet(id), deps.service.getBalances(id)]);
  return { alias, wallet, balances };
}

export async function balanceAnswer(deps: AnswerDeps, args: string): Promise<Blocks> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) throw new InputError('Give one wallet at most.');
  if (words.length === 1) {
    const target = resolveWallet(deps.config.wallets, words[0] as string);
    try {
      return balanceBlocks([await walletView(deps, target.alias, target.id)], deps.now(), []);
    } catch (err) {
      if (isServiceError(err) && err.status === 404 && target.alias === undefined) {
        const aliases = deps.config.wallets.map((w) => w.alias).join(', ');
        throw new InputError(
          `"${clean(target.id)}" is neither a configured wallet (${aliases}) nor a wallet id the service knows${serviceSaid(err)}; check the spelling.`,
        );
      }
      throw err;
    }
  }
  const settled = await Promise.allSettled(deps.config.wallets.map((w) => walletView(deps, w.alias, w.id)));
  const views: WalletView[] = [];
  const failures: { alias: string; message: string }[] = [];
  settled.forEach((r, i) => {
    const alias = deps.config.wallets[i]?.alias ?? '?';
    if (r.status === 'fulfilled') views.push(r.value);
    else failures.push({ alias, message: describeError(r.reason) });
  });
  if (views.length === 0 && settled[0]?.status === 'rejected') throw settled[0].reason;
  return balanceBlocks(views, deps.now(), failures);
}

export async function rateAnswer(deps: AnswerDeps, args: string): Promise<Blocks> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) throw new InputError('Give one currency at most.');
  const parsed = currencySchema.safeParse(words[0] ?? 'NGN');
  if (!parsed.success) throw new InputError(`"${words[0]}" is not a currency the service quotes; the only one is NGN.`);
  const rate = await deps.service.getOnrampRate(parsed.data);
  return rateBlocks(parsed.data, rate.rate, deps.now());
}

export function parseLookupArgs(args: string): { bankCode: string; accountNumber: string } {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length !== 2) throw new InputError('Give a bank code and an account number.');
  const [bankCode, accountNumber] = words as [string, string];
  if (!/^\d{3,6}$/.test(bankCode))
    throw new InputError(`"${bankCode}" is not a bank code; it is 3 to 6 digits, e.g. 058.`);
  if (!/^\d{10}$/.test(accountNumber)) {
    throw new InputError(
      `A Nigerian account number (NUBAN) has exactly 10 digits; "${accountNumber}" has ${accountNumber.replace(/\D/g, '').length === accountNumber.length ? accountNumber.length : 'other characters'}.`,
    );
  }
  return { bankCode, accountNumber };
}

export async function lookupAnswer(deps: AnswerDeps, args: string): Promise<Blocks> {
  const { bankCode, accountNumber } = parseLookupArgs(args);
  try {
    const r = await deps.service.lookupAccount({ bank_code: bankCode, account_number: accountNumber, currency: 'ngn' });
    return lookupBlocks(r);
  } catch (err) {
    if (isServiceError(err) && err.status === 404) {
      throw new InputError(
        `No account ${accountNumber.slice(-4).padStart(10, '•')} at bank ${bankCode}${serviceSaid(err)}; check both numbers with the account holder.`,
      );
    }
    throw err;
  }
}

export const ANSWERS = { balance: balanceAnswer, rate: rateAnswer, lookup: lookupAnswer } as const;
export type ShareableCommand = keyof typeof ANSWERS;
