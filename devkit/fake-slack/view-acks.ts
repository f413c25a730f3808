/**
 * What Slack does with the acknowledgement of a view_submission
 * (https://docs.slack.dev/surfaces/modals#response_actions): no `response_action` closes the
 * submitted view, `errors` keeps it open, `update` replaces it, `push` stacks one more, `clear`
 * closes them all.
 */

import type { JsonObject } from './types.js';
import { buildView, MAX_VIEW_STACK } from './view-methods.js';
import type { WebApiEnv } from './web-api-env.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies the ack; returns a problem description when Slack would refuse it. */
export function applyViewSubmissionAck(
  env: WebApiEnv,
  userId: string,
  viewId: string,
  body: unknown,
): string | undefined {
  const { store, ids } = env;
  const ack = isObject(body) ? body : {};
  const action = ack.response_action;
  if (action === 'errors') return undefined;
  if (action === 'clear') {
    store.clearViews(userId);
    return undefined;
  }
  if (action !== 'update' && action !== 'push') {
    store.closeView(userId, viewId);
    return undefined;
  }
  const method = `view_submission ack (response_action=${action})`;
  const current = store.findView(viewId)?.view;
  if (!isObject(ack.view) || !current) return `${method}: no view to ${action}`;
  if (env.checkLimits(method, 'modal', ack.view)) return `${method}: invalid_blocks`;
  if (action === 'update') {
    const lineage = { id: viewId, rootViewId: current.root_view_id, previousViewId: current.previous_view_id };
    store.replaceView(buildView(ack.view, env, lineage));
    return undefined;
  }
  if (store.stackSize(userId) >= MAX_VIEW_STACK) return `${method}: push_limit_reached`;
  const lineage = { id: ids.viewId(), rootViewId: current.root_view_id, previousViewId: viewId };
  store.pushView(userId, buildView(ack.view, env, lineage));
  return undefined;
}
