/**
 * The app as the adapters see it: the request-handling side's stores, queues and
 * directories on the fail-fast connection, in the one bag every adapter receives.
 */

import type { Queues } from '../adapters/jobs/queues.js';
import type { Deps } from '../adapters/slack/deps.js';
import { publishHome } from '../adapters/slack/events/home.js';
import { HomeRefresher } from '../adapters/slack/home-refresh.js';
import { slackPasskeyNotices } from '../adapters/slack/web-api/passkey-notices.js';
import { SlackPeople } from '../adapters/slack/web-api/people.js';
import type { FacadeDeps } from '../app/facade-deps.js';
import { createApp } from '../app/index.js';
import { registerBatchGauge } from '../metrics/batch-rows.js';
import { registerHealthGauges } from '../metrics/health-gauges.js';
import { metricSources } from '../metrics/sources.js';
import { ApiKeyStore } from '../store/api-keys.js';
import { BalanceCache } from '../store/balance-cache.js';
import { BalanceHistory } from '../store/balance-history.js';
import { UnfreezeStore } from '../store/controls.js';
import { PasskeyStore } from '../store/passkeys.js';
import { SeriesStore } from '../store/series.js';
import { StepUpTokens } from '../store/step-up-tokens.js';
import { apiPorts, idempotencyRecordsByKey } from './api-ports.js';
import type { Built } from './built.js';
import { buildPorts, type RolePorts, slackDirectory } from './ports.js';

/**
 * The web role's one bag — the role's ports (compose/ports.ts, the same AppDeps the
 * workers get) and the ones only its adapters' use cases add (passkeys, the unfreeze card…). The
 * façade binds it; the HTTP API and the passkey pages take it as it is.
 */
export type WebDeps = RolePorts & FacadeDeps;

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
  // The one AppDeps of request handling, built as the worker role builds its own.
  const { deps: ports, undecorated: webStore } = buildPorts(b, redis, 'web');
  const { store, queues, controls } = ports;
  // Batches by state.
  registerBatchGauge(metrics, webStore, { redis, prefix, log });
  const watched = [queues.execute, queues.expire, queues.notifications, ...(audit ? [audit.queue] : [])];
  metrics.watch(
    metricSources(store, watched, now, audit && (() => audit.backlog(webStore)), () =>
      idempotencyRecordsByKey(redis, prefix),
    ),
  );
  registerHealthGauges(metrics, { redis, prefix, now });
  const deps: WebDeps = {
    ...ports,
    identityCreators: slackDirectory(b, config.identityCreators),
    unfreeze: new UnfreezeStore(redis, prefix, controls),
    passkeys: new PasskeyStore(redis, prefix),
    stepUpTokens: new StepUpTokens(redis, prefix),
    notices: slackPasskeyNotices(slackClient, { approvalsChannel: config.approvalsChannel, log, sandbox: b.sandbox }),
    // The passkey page names the people its card mentions, as Slack would.
    people: new SlackPeople(slackClient, log, now),
    apiKeys: new ApiKeyStore(redis, prefix),
    series: new SeriesStore(redis, store.keys, now),
    api: apiPorts(b, redis, slackClient),
    dashboard: { history: new BalanceHistory(redis, prefix), cache: new BalanceCache(redis, prefix) },
  };
  const slack: Deps = { config, log, now, approvers: deps.approvers, sandbox: b.sandbox, app: createApp(deps) };
  const homes = new HomeRefresher(redis, prefix, (user) => publishHome(slack, slackClient, user), now, log);
  slack.homeRefresh = homes;
  return { deps, slack, queues, watched, homes };
}
