/**
 * Who is acting: every use case that moves money, decides on it, or changes who or where money
 * can go takes an actor, whatever door it came through. Rules about people (no self-approval, not
 * the same person twice, proposer ≠ confirmer) compare `user`; `via` says which door, for the
 * history ("from the CLI", "from API key erp") and for rules that only some doors may pass (the
 * CLI never confirms a not-paid). Pure: no I/O.
 */
import type { ApiOrigin } from './api-key.js';

export type Actor =
  /** A Slack user, authenticated by Slack's signed request. */
  | { via: 'slack'; user: string }
  /** An HTTP API key; `user` is its owner, who counts as the requester. */
  | { via: 'api'; user: string; key: ApiOrigin }
  /** The terminal: `--as` names the person; whoever holds server access vouches for it. */
  | { via: 'cli'; user: string };

export const slackActor = (user: string): Actor => ({ via: 'slack', user });
export const cliActor = (user: string): Actor => ({ via: 'cli', user });
export const apiActor = (key: ApiOrigin): Actor => ({ via: 'api', user: key.owner, key });

/** The words a history entry or an audit event adds after the person's id. */
export function actorSource(actor: Actor): string | undefined {
  switch (actor.via) {
    case 'slack':
      return undefined;
    case 'cli':
      return 'from the CLI';
    case 'api':
      return `from API key ${actor.key.keyName}`;
  }
}
