/**
 * Whether an API key's owner is still an active member of the workspace: a key whose
 * owner was deactivated in Slack answers 401. users.info is asked at most every 5 minutes per
 * owner; the Web API client is injected, so tests use the fake Slack.
 */
import type { WebClient } from '@slack/web-api';
import type { OwnerDirectory } from '../../app/api-keys/ports.js';

export type { OwnerDirectory };

export const OWNER_CHECK_EVERY_MS = 5 * 60_000;

export class SlackOwnerDirectory implements OwnerDirectory {
  private readonly cache = new Map<string, { active: boolean; at: number }>();

  constructor(
    private readonly client: Pick<WebClient, 'users'>,
    private readonly ttlMs = OWNER_CHECK_EVERY_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async isActive(user: string): Promise<boolean> {
    const cached = this.cache.get(user);
    if (cached && this.now() - cached.at < this.ttlMs) return cached.active;
    let active: boolean;
    try {
      const r = await this.client.users.info({ user });
      active = r.ok === true && r.user?.deleted !== true;
    } catch (err) {
      // Only "no such user" is an answer; anything else is Slack failing (not cached).
      if ((err as { data?: { error?: string } }).data?.error !== 'user_not_found') throw err;
      active = false;
    }
    this.cache.set(user, { active, at: this.now() });
    return active;
  }
}
