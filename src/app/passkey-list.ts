/** `rampart passkeys list`: one approver's passkeys, or every approver's, in user order. */
import type { StoredPasskey } from '../domain/passkey.js';
import type { PasskeyStore } from '../store/passkeys.js';

export async function listPasskeys(
  deps: { passkeys: Pick<PasskeyStore, 'users' | 'list'> },
  user?: string,
): Promise<StoredPasskey[]> {
  const users = user === undefined ? await deps.passkeys.users() : [user];
  return (await Promise.all(users.map((u) => deps.passkeys.list(u)))).flat();
}
