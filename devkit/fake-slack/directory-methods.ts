/** Who and where: auth.test, users.info, usergroups.users.list, conversations.info. */
import type { FakePerson } from './types.js';
import { fail, type MethodHandler, str, type WebApiEnv } from './web-api-env.js';

/** Seconds east of UTC for `tz` at `at` (what Slack reports as `tz_offset`). */
export function tzOffsetSeconds(tz: string, at: number): number {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' }).formatToParts(at);
    const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    if (!match) return 0;
    const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
    return match[1] === '-' ? -seconds : seconds;
  } catch {
    return 0;
  }
}

function tzLabel(tz: string, at: number): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'long' }).formatToParts(at);
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? tz;
  } catch {
    return tz;
  }
}

function userJson(person: FakePerson, env: WebApiEnv) {
  const now = env.settings.clock();
  return {
    id: person.id,
    team_id: env.settings.teamId,
    name: person.name,
    real_name: person.real_name,
    deleted: person.deleted ?? false,
    is_bot: person.is_bot ?? false,
    is_app_user: false,
    tz: person.tz,
    tz_label: tzLabel(person.tz, now),
    tz_offset: tzOffsetSeconds(person.tz, now),
    profile: { real_name: person.real_name, display_name: person.name, team: env.settings.teamId },
  };
}

const authTest: MethodHandler = (_args, env) => {
  const { settings } = env;
  return {
    ok: true,
    url: `https://${settings.teamDomain}.slack.local/`,
    team: `${settings.teamDomain} (fake)`,
    user: 'rampart',
    team_id: settings.teamId,
    user_id: settings.botUserId,
    bot_id: settings.botId,
    is_enterprise_install: false,
  };
};

const usersInfo: MethodHandler = (args, env) => {
  const person = env.settings.people.find((p) => p.id === str(args.user));
  return person ? { ok: true, user: userJson(person, env) } : fail('user_not_found');
};

const usergroupUsers: MethodHandler = (args, env) => {
  const group = str(args.usergroup);
  const users = group === undefined ? undefined : env.settings.usergroups[group];
  return users ? { ok: true, users: [...users] } : fail('no_such_subteam');
};

const conversationsInfo: MethodHandler = (args, env) => {
  const channel = env.settings.channels.find((c) => c.id === str(args.channel));
  if (!channel) return fail('channel_not_found');
  return {
    ok: true,
    channel: {
      id: channel.id,
      name: channel.name,
      is_channel: !channel.is_private,
      is_group: channel.is_private ?? false,
      is_im: false,
      is_private: channel.is_private ?? false,
      is_archived: false,
      is_member: channel.is_member ?? true,
      is_ext_shared: channel.is_ext_shared ?? false,
      created: Math.floor(env.settings.clock() / 1000),
      context_team_id: env.settings.teamId,
    },
  };
};

export const directoryMethods: Record<string, MethodHandler> = {
  'auth.test': authTest,
  'users.info': usersInfo,
  'usergroups.users.list': usergroupUsers,
  'conversations.info': conversationsInfo,
};
