/**
 * Who may see treasury figures: VIEWERS lists users and/or user groups (groups
 * resolved through usergroups.users.list with the approvers' cache time); unset keeps today's
 * rule that anyone in the workspace may run `/balance`. One directory per process.
 */
import type { WebClient } from '@slack/web-api';
import { SlackApproverDirectory } from './approvers.js';
import type { Deps } from './deps.js';

const directories = new WeakMap<Deps, SlackApproverDirectory>();

export async function canView(deps: Deps, client: WebClient, user: string): Promise<boolean> {
  const viewers = deps.config.reports.viewers;
  if (!viewers) return true;
  let dir = directories.get(deps);
  if (!dir) {
    dir = new SlackApproverDirectory(viewers, client, deps.config.approverCacheMs, deps.now);
    directories.set(deps, dir);
  }
  return dir.isApprover(user);
}

export const NOT_A_VIEWER =
  'Treasury figures are shown only to the people in VIEWERS; ask whoever runs Rampart to add you or your user group.';
