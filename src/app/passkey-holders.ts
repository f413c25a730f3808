/**
 * Approvers holding a passkey that counts now (active, out of its cool-down): a step-up card
 * says when too few do for its quorum, and who could register one.
 */
import type { PasskeyStore } from '../store/passkeys.js';

export async function passkeyHolders(passkeys: Pick<PasskeyStore, 'users' | 'usable'>, now: number): Promise<string[]> {
  const users = await passkeys.users();
  const usable = await Promise.all(users.map(async (u) => ((await passkeys.usable(u, now)).length > 0 ? u : '')));
  return usable.filter(Boolean);
}
