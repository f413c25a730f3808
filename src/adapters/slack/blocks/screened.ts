/**
 * What a screening hit says: the execution, that nothing was sent, and the list's own identity
 * name and date (the start script's words) — never the listed party or anything else from the
 * list. Pure.
 */
import { esc, link } from './common.js';

const mention = (a: string) => (a.startsWith('S') ? `<!subteam^${a}>` : `<@${a}>`);

/** The reply under the card, to the approvers (and SCREENING_NOTIFY's user group). */
export const screenedReply = (executionId: string, why: string, to: readonly string[]): string =>
  `:no_entry: ${executionId} was not paid: its destination is ${esc(why)}. It was cancelled at its start and cannot be requested again.${to.length > 0 ? ` ${to.map(mention).join(' ')}` : ''}`;

/** The message to SCREENING_NOTIFY's channel, with a link to the card. */
export const screenedNotice = (executionId: string, why: string, permalink: string): string =>
  `:no_entry: Screening stopped ${executionId}: its destination is ${esc(why)}. ${link(permalink, 'Open the card')}`;
