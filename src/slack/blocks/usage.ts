/** Usage lines for every command, shown on `help` and on malformed input. */
export const USAGE = {
  balance:
    'Usage: `/balance [wallet]` shows one wallet (alias or id) or, with nothing after it, every configured wallet. Example: `/balance ops`',
  rate: 'Usage: `/rate [currency]` shows the onramp rate (NGN when omitted). Example: `/rate NGN`',
  lookup:
    'Usage: `/lookup <bank_code> <account_number>` shows the bank and account holder; with nothing after it, a form opens. Example: `/lookup 058 0123456789`',
  transfer:
    'Usage: `/transfer [amount] [asset] to [address] from [wallet] for [reason]` opens a form, pre-filled with what you typed. Example: `/transfer 250 base:usdc to 0xAbC… from ops for vendor invoice 118`',
  offramp:
    'Usage: `/offramp [amount] [asset] from [wallet] for [reason]` opens a form to pay out to a bank beneficiary. Example: `/offramp 500 base:usdc from ops for payroll`',
} as const;

export type CommandName = keyof typeof USAGE;

export const isHelp = (text: string): boolean => /^(help|-h|--help|\?)$/i.test(text.trim());
