/** /balance, /rate, /lookup: ack at once, fetch after the ack, answer only the asker. */
import { ANSWERS } from '../answers.js';
import { errorBlocks, shareButton } from '../blocks/common.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import { respondBlocks, respondError } from '../respond.js';
import type { CommandHandler, Routes } from '../routes.js';
import { openLookupModal } from '../views/lookup.js';

const FALLBACK = { balance: 'Wallet balances', rate: 'Onramp rate', lookup: 'Bank account lookup' } as const;
// Lookup answers name a person's account: not offered for sharing.
const SHAREABLE = { balance: true, rate: true, lookup: false } as const;

/** /balance, /rate or /lookup: the usage on `help`; the lookup form when /lookup has no text. */
export const readOnlyCommand =
  (name: keyof typeof FALLBACK, deps: Deps): CommandHandler =>
  async ({ command, ack, respond, client }) => {
    const text = command.text ?? '';
    if (isHelp(text)) {
      await ack({ response_type: 'ephemeral', text: USAGE[name] });
      return;
    }
    await ack();
    if (name === 'lookup' && text.trim() === '') {
      if (!(await openLookupModal(client, command.trigger_id, deps))) {
        // Never silence: without the form, the same lookup can still be typed.
        const message = 'Slack could not open the lookup form just now; type the bank code and account number instead.';
        await respond({ response_type: 'ephemeral', text: message, blocks: errorBlocks(message, USAGE.lookup) });
      }
      return;
    }
    try {
      const blocks = await ANSWERS[name](deps, text);
      await respondBlocks(
        respond,
        FALLBACK[name],
        SHAREABLE[name] ? [...blocks, shareButton(name, text.trim())] : blocks,
      );
    } catch (err) {
      await respondError(respond, deps, err, USAGE[name]);
    }
  };

export function registerReadOnlyCommands(app: Routes, deps: Deps): void {
  for (const name of ['balance', 'rate', 'lookup'] as const) {
    app.command(`/${name}`, readOnlyCommand(name, deps));
  }
}
