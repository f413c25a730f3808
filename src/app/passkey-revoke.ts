/**
 * `rampart passkeys revoke`: server access removes one passkey
 * or all of an approver's; the owner hears of it by direct message as for a removal on the page,
 * and the card of a passkey still pending is redrawn. Slack being unreachable never undoes or
 * fails the removal: the caller is told the message was not sent.
 */
import type { Passkey } from '../store/passkeys.js';
import { redrawPasskeyCard } from './passkey-card.js';
import type { StepUpDeps } from './step-up-deps.js';

export type Revoked =
  | { kind: 'none' }
  /** told: the owner's message was sent; undefined: Slack is not configured here. */
  | { kind: 'revoked'; count: number; removed: Passkey[]; told: boolean | undefined };

export async function revokePasskeys(
  deps: Pick<StepUpDeps, 'passkeys' | 'notices'>,
  user: string,
  id?: string,
): Promise<Revoked> {
  const before = await deps.passkeys.list(user);
  const count = await deps.passkeys.revoke(user, id);
  if (count === 0) return { kind: 'none' };
  const removed = before.filter((p) => id === undefined || p.id === id);
  const [told] = await Promise.all([
    deps.notices ? deps.notices.removed(user, removed, 'cli') : Promise.resolve(undefined),
    ...removed.map((p) => redrawPasskeyCard(deps, p, { kind: 'removed', by: 'cli' })),
  ]);
  return { kind: 'revoked', count, removed, told };
}
