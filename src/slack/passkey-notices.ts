/**
 * The Slack side of PasskeyNotices (issue 22): the owner's direct message for every passkey
 * requested, added or removed, and the approval card of a pending one in the approvals channel.
 * A failed post is logged and never changes what happened to the passkey.
 */
import type { WebClient } from '@slack/web-api';
import type { PasskeyNotices } from '../app/step-up-deps.js';
import type { Logger } from '../log.js';
import { withSandboxNote, withSandboxText } from './blocks/common.js';
import { addedDm, passkeyCardBlocks, passkeyCardText, removedDm, requestedDm } from './blocks/passkey.js';

export function slackPasskeyNotices(
  client: WebClient,
  opts: { approvalsChannel: string; sandbox: boolean; log: Logger },
): PasskeyNotices {
  const text = (t: string) => withSandboxText(t, opts.sandbox);
  const post = async (what: string, send: () => Promise<unknown>) => {
    try {
      await send();
    } catch (err) {
      opts.log.warn({ err }, `could not send the passkey ${what}`);
    }
  };
  const dm = (user: string, t: string) =>
    post('direct message', () => client.chat.postMessage({ channel: user, text: text(t), unfurl_links: false }));
  return {
    async requested(p) {
      await Promise.all([
        dm(p.user, requestedDm(p)),
        post('approval card', () =>
          client.chat.postMessage({
            channel: opts.approvalsChannel,
            text: text(passkeyCardText(p)),
            blocks: withSandboxNote(passkeyCardBlocks(p), opts.sandbox),
          }),
        ),
      ]);
    },
    added: (p) => dm(p.user, addedDm(p)),
    removed: (user, removed, by) => dm(user, removedDm(removed, by)),
  };
}
