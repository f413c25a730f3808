/** Slack as `rampart doctor` asks it: the Web API calls behind app/doctor's SlackProbe. */
import { WebClient } from '@slack/web-api';
import type { SlackProbe } from '../../../app/doctor.js';
import { slackClientOptions } from './client-options.js';

const errorOf = (err: unknown): string => {
  const data = (err as { data?: { error?: unknown } }).data;
  if (typeof data?.error === 'string') return data.error;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'no answer';
};

export function slackProbe(botToken: string, apiUrl: string | undefined): SlackProbe {
  const client = new WebClient(botToken, slackClientOptions(apiUrl));
  return {
    async authTest() {
      try {
        const r = await client.auth.test();
        // The Web API client reads the granted scopes from the x-oauth-scopes header.
        return { ok: true, scopes: r.response_metadata?.scopes, team: String(r.team ?? r.team_id ?? '?') };
      } catch (err) {
        return { ok: false, error: errorOf(err) };
      }
    },
    async channel(id) {
      try {
        const r = await client.conversations.info({ channel: id });
        return { found: true, member: r.channel?.is_member === true, name: r.channel?.name ?? id };
      } catch (err) {
        return { found: false, error: errorOf(err) };
      }
    },
    async user(id) {
      try {
        const r = await client.users.info({ user: id });
        return { found: true, deleted: r.user?.deleted === true };
      } catch (err) {
        return { found: false, error: errorOf(err) };
      }
    },
    async group(id) {
      try {
        const r = await client.usergroups.users.list({ usergroup: id });
        return { found: true, members: r.users?.length ?? 0 };
      } catch (err) {
        return { found: false, error: errorOf(err) };
      }
    },
  };
}
