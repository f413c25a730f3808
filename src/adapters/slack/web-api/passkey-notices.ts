/**
 * The Slack side of PasskeyNotices: the owner's direct message for every passkey
 * requested, added or removed, and the approval card of a pending one in the approvals channel,
 * redrawn once decided. A failed post is logged and never changes what happened to the passkey.
 * In slack-api/ (not the Bolt adapter) because `rampart passkeys revoke` sends the same message.
 */
import type { WebClient } from '@slack/web-api';
import type { PasskeyNotices } from '../../../app/step-up-deps.js';
import type { Logger } from '../../../log.js';
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
import { noteOnSandboxRespond } from './sandbox-note.js';

export function slackPasskeyNotices(
  client: WebClient,
  /** `sandbox`: a response URL's answer carries the note too (the client passed in already does). */
  opts: { approvalsChannel: string; log: Logger; sandbox?: boolean },
): PasskeyNotices {
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
      client.chat.postMessage({ channel: user, text: t, unfurl_links: false }).then(() => true),
    )) ?? false;
  return {
    async requested(p) {
      const [, card] = await Promise.all([
        dm(p.user, requestedDm(p)),
        post('approval card', () =>
          client.chat.postMessage({
            channel: opts.approvalsChannel,
            text: passkeyCardText(p),
            blocks: passkeyCardBlocks(p),
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
          text: passkeyCardDecidedText(p, decision),
          blocks: passkeyCardDecidedBlocks(p, decision),
        }),
      );
    },
    async linkUsed(responseUrl, subject) {
      // An ephemeral message cannot be edited with chat.update; its click's response URL replaces it.
      await post('link message update', () =>
        noteOnSandboxRespond(
          respondTo(responseUrl),
          opts.sandbox ?? false,
        )({
          replace_original: true,
          text: stepUpLinkUsedText(subject),
        }),
      );
    },
  };
}
