/**
 * SLACK_TEAM_ID (and SLACK_ENTERPRISE_ID) guard every incoming request by the workspace its own
 * payload names, never by the bot token's team: a validly signed request from anywhere else is
 * refused before any listener runs (DESIGN invariant 8).
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../../log.js';

export interface WorkspaceRule {
  teamId: string | undefined;
  enterpriseId: string | undefined;
}

export const NOT_INSTALLED = 'Rampart is not installed for this workspace.';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Every team and enterprise id a request names: commands' `team_id`, interactions' `team.id`
 * and `user.team_id`, a view's `app_installed_team_id`, events' `team_id` and authorizations.
 */
export function requestWorkspaces(body: unknown): { teams: string[]; enterprises: string[] } {
  const teams = new Set<string>();
  const enterprises = new Set<string>();
  const addTeam = (v: unknown) => {
    const id = str(v);
    if (id) teams.add(id);
  };
  const addEnterprise = (v: unknown) => {
    const id = str(v);
    if (id) enterprises.add(id);
  };
  if (!isObject(body)) return { teams: [], enterprises: [] };
  addTeam(body.team_id);
  addEnterprise(body.enterprise_id);
  if (isObject(body.team)) {
    addTeam(body.team.id);
    addEnterprise(body.team.enterprise_id);
  }
  if (isObject(body.enterprise)) addEnterprise(body.enterprise.id);
  if (isObject(body.user)) addTeam(body.user.team_id);
  if (isObject(body.view)) addTeam(body.view.app_installed_team_id);
  if (Array.isArray(body.authorizations)) {
    for (const a of body.authorizations) {
      if (!isObject(a)) continue;
      addTeam(a.team_id);
      addEnterprise(a.enterprise_id);
    }
  }
  return { teams: [...teams], enterprises: [...enterprises] };
}

/** True when the request names only the configured workspace (and enterprise), and names it. */
export function fromOurWorkspace(rule: WorkspaceRule, body: unknown): boolean {
  const { teams, enterprises } = requestWorkspaces(body);
  if (rule.teamId && (teams.length === 0 || teams.some((t) => t !== rule.teamId))) return false;
  if (rule.enterpriseId && (enterprises.length === 0 || enterprises.some((e) => e !== rule.enterpriseId))) return false;
  return true;
}

/** The first input block of a submitted view: where Slack can show the refusal. */
function firstInputBlock(body: unknown): string | undefined {
  if (!isObject(body) || !isObject(body.view) || !Array.isArray(body.view.blocks)) return undefined;
  const input = body.view.blocks.find((b) => isObject(b) && b.type === 'input' && str(b.block_id));
  return isObject(input) ? str(input.block_id) : undefined;
}

/**
 * Global middleware: one sentence for a command (ephemeral) or a view submission (on the form);
 * a plain ack for everything else; no listener runs.
 */
export function workspaceGuard(rule: WorkspaceRule, log: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const { body, next } = args;
    if (fromOurWorkspace(rule, body)) {
      await next();
      return;
    }
    log.warn(requestWorkspaces(body), 'refused a request from another workspace');
    const ack = 'ack' in args ? (args.ack as ((r?: unknown) => Promise<void>) | undefined) : undefined;
    if (!ack) return; // events: Bolt has already acknowledged them
    const b = body as Json;
    if (str(b.command)) {
      await ack({ response_type: 'ephemeral', text: NOT_INSTALLED });
      return;
    }
    const block = b.type === 'view_submission' ? firstInputBlock(body) : undefined;
    if (block) await ack({ response_action: 'errors', errors: { [block]: NOT_INSTALLED } });
    else await ack();
  };
}
