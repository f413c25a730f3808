/**
 * A new passkey's approval card follows its decision: once approved, or
 * removed before anyone approved it, the card is redrawn without its button, saying who decided,
 * instead of offering a button that only answers "no longer waiting".
 */
import type { PasskeyCardDecision } from '../domain/passkey.js';
import type { Passkey } from '../store/passkeys.js';
import type { StepUpDeps } from './step-up-deps.js';

type CardDeps = Pick<StepUpDeps, 'passkeys' | 'notices'>;

/** Keeps where the card of a pending passkey went (nothing when no card was posted). */
export async function rememberPasskeyCard(deps: CardDeps, passkey: Passkey): Promise<void> {
  const card = await deps.notices?.requested(passkey);
  if (card) await deps.passkeys.setCard(passkey.user, passkey.id, card);
}

/** Redraws the card of a passkey that was pending, once (the card is taken with it). */
export async function redrawPasskeyCard(
  deps: CardDeps,
  passkey: Passkey,
  decision: PasskeyCardDecision,
): Promise<void> {
  if (!deps.notices || passkey.status !== 'pending') return;
  const card = await deps.passkeys.takeCard(passkey.user, passkey.id);
  if (card) await deps.notices.decided(passkey, card, decision);
}
