/** Which workspace a request comes from, read from its own payload. */
import { describe, expect, it } from 'vitest';
import { fromOurWorkspace, requestWorkspaces } from '../../../src/adapters/slack/workspace-guard.js';

const rule = { teamId: 'T0OURS', enterpriseId: undefined };
const action = (team: string, userTeam: string, enterprise?: string) => ({
  type: 'block_actions',
  team: { id: team },
  user: { id: 'U1', team_id: userTeam },
  enterprise: enterprise ? { id: enterprise } : null,
});

describe('workspace guard', () => {
  it('reads the team of a command, an interaction and an event', () => {
    expect(requestWorkspaces({ command: '/rate', team_id: 'T1' }).teams).toEqual(['T1']);
    expect(requestWorkspaces(action('T1', 'T2')).teams).toEqual(['T1', 'T2']);
    expect(
      requestWorkspaces({
        type: 'event_callback',
        team_id: 'T1',
        authorizations: [{ team_id: 'T1', enterprise_id: 'E1' }],
      }),
    ).toEqual({ teams: ['T1'], enterprises: ['E1'] });
  });

  it('accepts only requests that name our team and no other', () => {
    expect(fromOurWorkspace(rule, action('T0OURS', 'T0OURS'))).toBe(true);
    expect(fromOurWorkspace(rule, action('T0OTHER', 'T0OTHER'))).toBe(false);
    // A person from another workspace in a shared channel, clicking in ours.
    expect(fromOurWorkspace(rule, action('T0OURS', 'T0OTHER'))).toBe(false);
    // An org-wide install names no team: refused when a team is required.
    expect(fromOurWorkspace(rule, { type: 'block_actions', team: null, user: { id: 'U1' } })).toBe(false);
    expect(fromOurWorkspace(rule, { command: '/rate', team_id: 'T0OURS' })).toBe(true);
    expect(fromOurWorkspace(rule, 'not a body')).toBe(false);
  });

  it('checks the enterprise when SLACK_ENTERPRISE_ID is set', () => {
    const both = { teamId: 'T0OURS', enterpriseId: 'E0OURS' };
    expect(fromOurWorkspace(both, action('T0OURS', 'T0OURS', 'E0OURS'))).toBe(true);
    expect(fromOurWorkspace(both, action('T0OURS', 'T0OURS', 'E0OTHER'))).toBe(false);
    expect(fromOurWorkspace(both, action('T0OURS', 'T0OURS'))).toBe(false);
  });
});
