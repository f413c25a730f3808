/**
 * The workspace the workbench plays: four people (a requester, the two dev approvers, someone
 * who is neither), the team channel and the approvals channel. Approver labels come from the
 * run's APPROVERS, so the switcher tells the truth when they are changed.
 */
import type { Config } from '../../src/config.js';
import type { FakeChannel, FakePerson } from '../fake-slack/index.js';

export const REQUESTER = 'U0REQUESTER';
export const OUTSIDER = 'U0OUTSIDER';
export const TEAM_CHANNEL = 'C0GENERAL';
/** A user group holding both dev approvers, for trying `APPROVERS=S0TREASURY`. */
export const APPROVER_GROUP = 'S0TREASURY';

const TZ = 'Africa/Lagos';

const SEEDED_PEOPLE: readonly FakePerson[] = [
  { id: REQUESTER, name: 'riley', real_name: 'Riley Okafor', tz: TZ },
  { id: 'U0APPROVER1', name: 'amara', real_name: 'Amara Nwosu', tz: TZ },
  { id: 'U0APPROVER2', name: 'ayo', real_name: 'Ayo Bello', tz: TZ },
  { id: OUTSIDER, name: 'olu', real_name: 'Olu Adeyemi', tz: TZ },
];

export interface WorkspacePerson extends FakePerson {
  /** What this person is in this run, for the "you are" switcher. */
  role: 'requester' | 'approver' | 'not an approver';
}

export interface Workspace {
  people: WorkspacePerson[];
  channels: FakeChannel[];
  usergroups: Record<string, string[]>;
  approvalsChannel: string;
}

export function workspaceFor(config: Pick<Config, 'approvers' | 'approvalsChannel'>): Workspace {
  const usergroups: Record<string, string[]> = { [APPROVER_GROUP]: ['U0APPROVER1', 'U0APPROVER2'] };
  const approverIds = new Set(config.approvers.flatMap((a) => (a.startsWith('S') ? (usergroups[a] ?? []) : [a])));
  // Approvers named in APPROVERS but not seeded still get a seat, so each can be played.
  const extra = [...approverIds]
    .filter((id) => !SEEDED_PEOPLE.some((p) => p.id === id))
    .map((id): FakePerson => ({ id, name: id.toLowerCase(), real_name: id, tz: TZ }));
  const people = [...SEEDED_PEOPLE, ...extra].map(
    (p): WorkspacePerson => ({
      ...p,
      role: approverIds.has(p.id) ? 'approver' : p.id === REQUESTER ? 'requester' : 'not an approver',
    }),
  );
  const channels: FakeChannel[] = [{ id: TEAM_CHANNEL, name: 'treasury' }];
  if (config.approvalsChannel !== TEAM_CHANNEL)
    channels.push({ id: config.approvalsChannel, name: 'treasury-approvals' });
  return { people, channels, usergroups, approvalsChannel: config.approvalsChannel };
}
