/** views.* methods: modals (open, push, update) and the App Home (publish). */
import { fillBlockIds } from './fill-ids.js';
import type { JsonObject, StoredView } from './types.js';
import { type ApiResult, fail, type MethodHandler, str, type WebApiEnv } from './web-api-env.js';

// Slack allows a root view plus two pushed ones (https://docs.slack.dev/surfaces/modals#updating_views).
export const MAX_VIEW_STACK = 3;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOrNull = (v: unknown): JsonObject | null => (isObject(v) ? v : null);

interface Lineage {
  id: string;
  rootViewId: string | null;
  previousViewId: string | null;
}

/** The view as Slack stores and returns it, with a fresh hash. */
export function buildView(input: JsonObject, env: WebApiEnv, lineage: Lineage): StoredView {
  const { settings, ids } = env;
  return {
    id: lineage.id,
    team_id: settings.teamId,
    type: input.type === 'home' ? 'home' : 'modal',
    callback_id: str(input.callback_id) ?? '',
    private_metadata: str(input.private_metadata) ?? '',
    external_id: str(input.external_id) ?? '',
    title: textOrNull(input.title),
    submit: textOrNull(input.submit),
    close: textOrNull(input.close),
    blocks: fillBlockIds(input.blocks, ids),
    state: { values: {} },
    hash: ids.viewHash(),
    clear_on_close: input.clear_on_close === true,
    notify_on_close: input.notify_on_close === true,
    root_view_id: lineage.rootViewId,
    previous_view_id: lineage.previousViewId,
    app_id: settings.appId,
    app_installed_team_id: settings.teamId,
    bot_id: settings.botId,
  };
}

function viewArg(method: string, args: JsonObject, kind: 'modal' | 'home', env: WebApiEnv): JsonObject | ApiResult {
  if (!isObject(args.view)) {
    return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: view'] } });
  }
  return env.checkLimits(method, kind, args.view) ?? args.view;
}

const isResult = (v: JsonObject | ApiResult): v is ApiResult => typeof v.ok === 'boolean';

function useTrigger(args: JsonObject, env: WebApiEnv): { user: string } | ApiResult {
  const use = env.triggers.use(args.trigger_id);
  if (use.ok) return { user: use.user ?? 'unknown' };
  if (use.error !== 'invalid_arguments') return fail(use.error);
  return fail('invalid_arguments', {
    response_metadata: { messages: ['[ERROR] invalid `trigger_id` [json-pointer:/trigger_id]'] },
  });
}

const open: MethodHandler = (args, env) => {
  const view = viewArg('views.open', args, 'modal', env);
  if (isResult(view)) return view;
  const trigger = useTrigger(args, env);
  if ('ok' in trigger) return trigger;
  const externalId = str(view.external_id);
  if (externalId && env.store.findViewByExternalId(externalId)) return fail('duplicate_external_id');
  const id = env.ids.viewId();
  const stored = buildView(view, env, { id, rootViewId: id, previousViewId: null });
  env.store.openView(trigger.user, stored);
  return { ok: true, view: stored };
};

const push: MethodHandler = (args, env) => {
  const view = viewArg('views.push', args, 'modal', env);
  if (isResult(view)) return view;
  const trigger = useTrigger(args, env);
  if ('ok' in trigger) return trigger;
  const stack = env.store.views(trigger.user);
  const top = stack.at(-1);
  if (!top)
    return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] no open view to push onto'] } });
  if (stack.length >= MAX_VIEW_STACK) return fail('push_limit_reached');
  const stored = buildView(view, env, { id: env.ids.viewId(), rootViewId: top.root_view_id, previousViewId: top.id });
  env.store.pushView(trigger.user, stored);
  return { ok: true, view: stored };
};

const update: MethodHandler = (args, env) => {
  const viewId = str(args.view_id);
  const externalId = str(args.external_id);
  const found = viewId
    ? env.store.findView(viewId)
    : externalId
      ? env.store.findViewByExternalId(externalId)
      : undefined;
  if (!found) return fail('not_found');
  const view = viewArg('views.update', args, found.view.type, env);
  if (isResult(view)) return view;
  const hash = str(args.hash);
  if (hash !== undefined && hash !== found.view.hash) return fail('hash_conflict');
  const stored = buildView(view, env, {
    id: found.view.id,
    rootViewId: found.view.root_view_id,
    previousViewId: found.view.previous_view_id,
  });
  env.store.replaceView(stored);
  return { ok: true, view: stored };
};

const publish: MethodHandler = (args, env) => {
  const user = str(args.user_id);
  if (!user) return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing user_id'] } });
  if (env.settings.people.length > 0 && !env.settings.people.some((p) => p.id === user)) return fail('user_not_found');
  const view = viewArg('views.publish', args, 'home', env);
  if (isResult(view)) return view;
  const current = env.store.home(user);
  const hash = str(args.hash);
  if (hash !== undefined && current && hash !== current.hash) return fail('hash_conflict');
  const stored = buildView(view, env, { id: current?.id ?? env.ids.viewId(), rootViewId: null, previousViewId: null });
  env.store.publishHome(user, stored);
  return { ok: true, view: stored };
};

export const viewMethods: Record<string, MethodHandler> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
