/**
 * The Slack side of PasskeyNotices: the owner's direct message for every passkey
 * requested, added or removed, and the approval card of a pending one in the approvals channel,
 * redrawn once decided. A failed post is logged and never changes what happened to the passkey.
 * In slack-api/ (not the Bolt adapter) because `rampart passkeys revoke` sends the same message.
 */
import type { WebClient } from '@slack/web-api';
import type { PasskeyNotices } from '../../../app/step-up-deps.js';
import type { Logger } from '../../../log.js';
import { withSandboxNote, withSandboxText } from '../blocks/common.js';
import {
  addedDm,
  passkeyCardBlocks,
  passkeyCardDecidedBlocks,
  passkeyCardDecidedText,
  passkeyCardText,
  removedDm,
  requestedDm,
} from '../blocks/passkey.js';
import { stepUpLinkUsedText } from '../blocks/step-up.js';
import { respondTo } from './respond-url.js';

export function slackPasskeyNotices(
  client: WebClient,
  opts: { approvalsChannel: string; sandbox: boolean; log: Logger },
): PasskeyNotices {
  const text = (t: string) => withSandboxText(t, opts.sandbox);
  const post = async <T>(what: string, send: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await send();
    } catch (err) {
      opts.log.warn({ err }, `could not send the passkey ${what}`);
      return undefined;
    }
  };
  const dm = async (user: string, t: string): Promise<boolean> =>
    (await post('direct message', () =>
      client.chat.postMessage({ channel: user, text: text(t), unfurl_links: false }).then(() => true),
    )) ?? false;
  return {
    async requested(p) {
      const [, card] = await Promise.all([
        dm(p.user, requestedDm(p)),
        post('approval card', () =>
          client.chat.postMessage({
            channel: opts.approvalsChannel,
            text: text(passkeyCardText(p)),
            blocks: withSandboxNote(passkeyCardBlocks(p), opts.sandbox),
          }),
        ),
      ]);
      return card?.channel && card.ts ? { channel: card.channel, ts: card.ts } : undefined;
    },
    added: async (p) => {
      await dm(p.user, addedDm(p));
    },
    removed: (user, removed, by) => dm(user, removedDm(removed, by)),
    async decided(p, card, decision) {
      await post('approval card update', () =>
        client.chat.update({
          channel: card.channel,
          ts: card.ts,
          text: text(passkeyCardDecidedText(p, decision)),
          blocks: withSandboxNote(passkeyCardDecidedBlocks(p, decision), opts.sandbox),
        }),
      );
    },
    async linkUsed(responseUrl, subject) {
      // An ephemeral message cannot be edited with chat.update; its click's response URL replaces it.
      await post('link message update', () =>
        respondTo(responseUrl)({ replace_original: true, text: text(stepUpLinkUsedText(subject)) }),
      );
    },
  };
}
