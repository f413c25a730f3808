/**
 * Display names for the passkey page: the card's `<@U…>` mentions are shown by Slack
 * as the person's name, so the page, which has no Slack to do it, asks users.info (scope
 * users:read) and shows the same name. Cached for 5 minutes; a person Slack cannot name (or
 * Slack not answering) is left out, and the page shows the id instead.
 */
import type { WebClient } from '@slack/web-api';
import type { PeopleNames } from '../../../app/step-up-deps.js';
import type { Logger } from '../../../log.js';

export const NAMES_FOR_MS = 5 * 60_000;

interface SlackUser {
  name?: string;
  real_name?: string;
  profile?: { display_name?: string; real_name?: string };
}

/** What Slack shows for a mention: the display name, else the full name, else the handle. */
export const shownName = (u: SlackUser): string | undefined =>
  u.profile?.display_name || u.profile?.real_name || u.real_name || u.name || undefined;

export class SlackPeople implements PeopleNames {
  private readonly cache = new Map<string, { name: string; at: number }>();

  constructor(
    private readonly client: Pick<WebClient, 'users'>,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly now: () => number = Date.now,
  ) {}

  async names(ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const found = await Promise.all(ids.map(async (id) => [id, await this.nameOf(id)] as const));
    return new Map(found.filter((e): e is readonly [string, string] => e[1] !== undefined));
  }

  private async nameOf(id: string): Promise<string | undefined> {
    const cached = this.cache.get(id);
    if (cached && this.now() - cached.at < NAMES_FOR_MS) return cached.name;
    try {
      const r = await this.client.users.info({ user: id });
      const name = r.user ? shownName(r.user) : undefined;
      if (name) this.cache.set(id, { name, at: this.now() });
      return name;
    } catch (err) {
      this.log.warn({ err }, 'could not read a display name for the passkey page; it shows the user id');
      return undefined;
    }
  }
}
