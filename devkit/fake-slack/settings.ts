/** The fake workspace's identity and directory, with defaults for what a test leaves out. */
import { BOT_SCOPES } from '../../src/domain/slack-scopes.js';
import type { FakeSettings, FakeSlackOptions } from './types.js';

export const FAKE_DEFAULTS = {
  teamId: 'T0FAKE0001',
  teamDomain: 'fake',
  botUserId: 'U0RAMPART',
  botId: 'B0RAMPART',
  appId: 'A0RAMPART',
  triggerTtlMs: 3000,
} as const;

export function settingsFrom(options: FakeSlackOptions): FakeSettings {
  return {
    botToken: options.botToken,
    teamId: options.teamId ?? FAKE_DEFAULTS.teamId,
    teamDomain: options.teamDomain ?? FAKE_DEFAULTS.teamDomain,
    botUserId: options.botUserId ?? FAKE_DEFAULTS.botUserId,
    botId: options.botId ?? FAKE_DEFAULTS.botId,
    appId: options.appId ?? FAKE_DEFAULTS.appId,
    people: options.people ?? [],
    usergroups: options.usergroups ?? {},
    channels: options.channels ?? [],
    triggerTtlMs: options.triggerTtlMs ?? FAKE_DEFAULTS.triggerTtlMs,
    clock: options.clock ?? Date.now,
    scopes: options.scopes ?? [...BOT_SCOPES],
  };
}
