/**
 * Who may approve: APPROVERS lists user ids and/or user group ids. Groups are resolved at click
 * time through usergroups.users.list with a short cache, so a removed member stops counting soon.
 */
import type { WebClient } from '@slack/web-api';
import type { ApproverDirectory } from '../../app/deps.js';

export type { ApproverDirectory };

export class SlackApproverDirectory implements ApproverDirectory {
  private readonly users: Set<string>;
  private readonly groups: string[];
  private cache: { members: Set<string>; until: number } | undefined;

  constructor(
    entries: readonly string[],
    private readonly client: WebClient,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.users = new Set(entries.filter((e) => !e.startsWith('S')));
    this.groups = entries.filter((e) => e.startsWith('S'));
  }

  async isApprover(userId: string): Promise<boolean> {
    if (this.users.has(userId)) return true;
    if (this.groups.length === 0) return false;
    return (await this.groupMembers()).has(userId);
  }

  /** Everyone listed, groups resolved (reminders and escalation). */
  async members(): Promise<string[]> {
    return [...new Set([...this.users, ...(this.groups.length ? await this.groupMembers() : [])])];
  }

  private async groupMembers(): Promise<Set<string>> {
    if (this.cache && this.cache.until > this.now()) return this.cache.members;
    const members = new Set<string>();
    for (const usergroup of this.groups) {
      const res = await this.client.usergroups.users.list({ usergroup });
      for (const u of res.users ?? []) members.add(u);
    }
    this.cache = { members, until: this.now() + this.ttlMs };
    return members;
  }
}
