/** /addresses: the address book's list, and `/addresses add` (a form; the entry needs approval). */
import { addressListBlocks, addressModal } from '../blocks/addresses.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import { respondBlocks, respondError } from '../respond.js';
import type { Routes } from '../routes.js';

export function registerAddressesCommand(app: Routes, deps: Deps): void {
  app.command('/addresses', async ({ command, ack, respond, client }) => {
    const text = (command.text ?? '').trim().toLowerCase();
    if (isHelp(text) || (text !== '' && text !== 'list' && text !== 'add')) {
      await ack({ response_type: 'ephemeral', text: USAGE.addresses });
      return;
    }
    await ack();
    if (text === 'add') {
      await client.views
        .open({ trigger_id: command.trigger_id, view: addressModal({ channel: command.channel_id }) })
        .catch((err: unknown) => deps.log.error({ err }, 'could not open the address-book modal'));
      return;
    }
    try {
      const [entries, mode] = await Promise.all([deps.app.destinations.list(), deps.app.destinations.mode()]);
      await respondBlocks(respond, 'Address book', addressListBlocks(entries, mode, Date.now()));
    } catch (err) {
      await respondError(respond, deps, err, USAGE.addresses);
    }
  });
}
