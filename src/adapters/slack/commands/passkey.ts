/**
 * /passkey: an approver gets a one-time link (10 min) to register a passkey
 * on this device, and the list of theirs. A Slack session can only list: removing needs another
 * passkey of the same person (the page) or the CLI.
 */
import { PASSKEY_USAGE, passkeyCommandBlocks } from '../blocks/passkey.js';
import { isHelp } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import type { CommandHandler, Routes } from '../routes.js';

/** /passkey: the usage on any text, a sentence where PUBLIC_URL is unset, else the link and the list. */
export const passkeyCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, client }) => {
    const text = (command.text ?? '').trim();
    if (isHelp(text) || text !== '') {
      await ack({ response_type: 'ephemeral', text: PASSKEY_USAGE });
      return;
    }
    if (!deps.config.stepUp.publicUrl) {
      await ack({
        response_type: 'ephemeral',
        text: 'Passkeys are not set up here: PUBLIC_URL is not configured (docs/step-up.md).',
      });
      return;
    }
    await ack();
    const user = command.user_id;
    let answer: { text: string; blocks?: ReturnType<typeof passkeyCommandBlocks> };
    try {
      const refused = await deps.app.approvals.authorise(user);
      if (refused) answer = { text: 'Only approvers register passkeys; ask an admin to add you to APPROVERS.' };
      else {
        const link = await deps.app.passkeys.enrolLink(user);
        if (link.kind !== 'link') throw new Error('a non-bootstrap link is never refused');
        const blocks = passkeyCommandBlocks(link.url, await deps.app.passkeys.list(user), deps.now());
        answer = { text: 'Register a passkey, or see yours.', blocks };
      }
    } catch (err) {
      deps.log.error({ err }, '/passkey failed');
      answer = { text: 'Rampart could not answer /passkey just now; nothing changed. Try again in a minute.' };
    }
    await client.chat
      .postEphemeral({
        channel: command.channel_id,
        user,
        text: answer.text,
        ...(answer.blocks ? { blocks: answer.blocks } : {}),
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'could not answer /passkey'));
  };

export function registerPasskeyCommand(app: Routes, deps: Deps): void {
  app.command('/passkey', passkeyCommand(deps));
}
