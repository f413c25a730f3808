/**
 * The app as the adapters see it (issue 18 §4): the request-handling side's stores, queues and
 * directories on the fail-fast connection, in the one bag every adapter receives.
 */
import { idempotencyRecordsByKey } from '../api/deps.js';
import type { AppDeps } from '../app/deps.js';
import { createApp, type FacadeDeps } from '../app/index.js';
import { countBatchRows, registerBatchGauge } from '../metrics/batch-rows.js';
import { registerHealthGauges } from '../metrics/health-gauges.js';
import { metricSources } from '../metrics/sources.js';
import { createQueues, type Queues } from '../queue/queues.js';
import { SlackApproverDirectory } from '../slack/approvers.js';
import type { Deps } from '../slack/deps.js';
import { publishHome } from '../slack/events/home.js';
import { HomeRefresher } from '../slack/home-refresh.js';
import { slackPasskeyNotices } from '../slack-api/passkey-notices.js';
import { BalanceCache } from '../store/balance-cache.js';
import { BalanceHistory } from '../store/balance-history.js';
import { ControlStore, UnfreezeStore } from '../store/controls.js';
import { PasskeyStore } from '../store/passkeys.js';
import { Registry } from '../store/registry.js';
import { RequestStore } from '../store/requests.js';
import { StepUpTokens } from '../store/step-up-tokens.js';
import type { Built } from './built.js';

/**
 * Issue 18 §4: the web role's one bag — the use cases' ports (AppDeps) and the ones only its
 * adapters' use cases add (passkeys, the unfreeze card…). The façade binds it; the HTTP API and
 * the passkey pages take it as it is.
 */
export type WebDeps = AppDeps & FacadeDeps & { queues: Queues };

export interface AppSide {
  deps: WebDeps;
  /** What the Slack listeners receive: the façade over `deps`, and what the edge itself needs. */
  slack: Deps;
  queues: Queues;
  /** The queues whose depths /healthz and /metrics report. */
  watched: Queues['execute'][];
  homes: HomeRefresher;
}

export function buildAppDeps(b: Built): AppSide {
  const { config, log, now, redis, metrics, audit, slackClient } = b;
  const prefix = config.redis.prefix;
  const webStore = new RequestStore(redis, prefix, now, b.counted);
  // Issue 20: batch rows by final state, and batches by state.
  countBatchRows(webStore, metrics, { redis, prefix, log });
  registerBatchGauge(metrics, webStore, { redis, prefix, log });
  const store = b.decorate.store?.(webStore, 'web') ?? webStore;
  const controls = new ControlStore(redis, prefix);
  const built = createQueues(redis, prefix, log);
  const queues = b.decorate.queues?.(built, 'web') ?? built;
  const watched = [queues.execute, queues.expire, queues.notifications, ...(audit ? [audit.queue] : [])];
  metrics.watch(
    metricSources(store, watched, now, audit && (() => audit.backlog(webStore)), () =>
      idempotencyRecordsByKey(redis, prefix),
    ),
  );
  registerHealthGauges(metrics, { redis, prefix, now });
  const directory = (who: readonly string[]) =>
    new SlackApproverDirectory(who, slackClient, config.approverCacheMs, now);
  const deps: WebDeps = {
    config,
    service: b.service,
    store,
    queues,
    approvers: directory(config.approvers),
    identityCreators: directory(config.identityCreators),
    registry: new Registry(redis, prefix),
    controls,
    unfreeze: new UnfreezeStore(redis, prefix, controls),
    passkeys: new PasskeyStore(redis, prefix),
    stepUpTokens: new StepUpTokens(redis, prefix),
    notices: slackPasskeyNotices(slackClient, { approvalsChannel: config.approvalsChannel, sandbox: b.sandbox, log }),
    log,
    now,
    dashboard: { history: new BalanceHistory(redis, prefix), cache: new BalanceCache(redis, prefix) },
  };
  const slack: Deps = { config, log, now, approvers: deps.approvers, sandbox: b.sandbox, app: createApp(deps) };
  const homes = new HomeRefresher(redis, prefix, (user) => publishHome(slack, slackClient, user), now, log);
  slack.homeRefresh = homes;
  return { deps, slack, queues, watched, homes };
}
