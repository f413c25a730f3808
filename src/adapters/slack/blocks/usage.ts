/**
 * Usage lines for every command, shown on `help` and on malformed input. They are mrkdwn, where a
 * bare `<…>` is a link or mention even inside backticks, so placeholders are written escaped.
 */
export const USAGE = {
  balance:
    'Usage: `/balance [wallet]` shows one wallet (alias or id) or, with nothing after it, every configured wallet. Example: `/balance ops`',
  rate: 'Usage: `/rate [currency]` shows the onramp rate (NGN when omitted). Example: `/rate NGN`',
  lookup:
    'Usage: `/lookup &lt;bank_code&gt; &lt;account_number&gt;` shows the bank and account holder; with nothing after it, a form opens. Example: `/lookup 058 0123456789`',
  transfer:
    'Usage: `/transfer [amount] [asset] to [address] from [wallet] for [reason]` opens a form, pre-filled with what you typed. Example: `/transfer 250 base:usdc to 0xAbC… from ops for vendor invoice 118`',
  offramp:
    'Usage: `/offramp [amount] [asset] from [wallet] for [reason]` opens a form to pay out to a bank beneficiary. Example: `/offramp 500 base:usdc from ops for payroll`',
  identity:
    'Usage: `/identity new` opens a form to create a BVN identity (approvers only); `/identity &lt;id&gt;` checks one with the service (also one made elsewhere, which Rampart then remembers, masked); `/identity list` lists those Rampart knows. Example: `/identity idn_123`',
  beneficiary:
    'Usage: `/beneficiary new` opens a form to add a payout destination (it needs approval); `/beneficiary register` registers one that already exists at the service (its id, as you state it; it needs approval); `/beneficiary list` lists approved ones. Example: `/beneficiary register`',
  addresses:
    'Usage: `/addresses` lists the address book (every entry, who added and approved it, when it became usable); `/addresses add` opens a form to add one (another approver must approve it, then it cools off). Approvers remove an entry with its Remove button (or `rampart addresses remove A-12 --as U…`).',
  schedules:
    'Usage: `/schedules` lists every series (recurring payouts): live ones first with *Skip next run* and *End series*, then those waiting for approval, then the last ended. To make one, choose *Repeat* on the `/transfer` or `/offramp` form. From a terminal: `rampart schedules list|show|skip|end`.',
  resolve:
    'Usage: `/resolve R-1234.1` (a batch row: `/resolve B-1003 row 2`) opens the form to record an outcome-unknown payment; `/resolve R-1234.1 paid &lt;transaction hash or payout reference&gt;` records it as made; `/resolve R-1234.1 not-paid &lt;why&gt;` proposes that it was not made (a second approver confirms on the card). Approvers other than the requester only.',
} as const;

export type CommandName = keyof typeof USAGE;

export const isHelp = (text: string): boolean => /^(help|-h|--help|\?)$/i.test(text.trim());
