/**
 * The Bolt app: in HTTP mode Bolt's own request listener, which Rampart's server mounts at
 * POST /slack/events (Bolt no longer owns a server); in Socket Mode
 * (SLACK_APP_TOKEN) a connection out to Slack. Then the workspace guard and every listener,
 * registered from its own file.
 */

import type { RequestListener } from 'node:http';
import {
  App,
  type Authorize,
  type AuthorizeResult,
  HTTPReceiver,
  type Receiver,
  SocketModeReceiver,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { registerAddressesActions } from './actions/addresses.js';
import { registerApprovalActions } from './actions/approval.js';
import { registerBatchActions } from './actions/batch.js';
import { registerCancelWaiting } from './actions/cancel-waiting.js';
import { registerHomeActions } from './actions/home.js';
import { registerOutcomeActions } from './actions/outcome.js';
import { registerPasskeyActions } from './actions/passkey.js';
import { registerSeriesActions } from './actions/series.js';
import { registerShareAction } from './actions/share.js';
import { registerAssetChoices } from './asset-choices.js';
import { boltLogger } from './bolt-logger.js';
import { registerAddressesCommand } from './commands/addresses.js';
import { registerBatchCommand } from './commands/batch.js';
import { registerFreezeCommands } from './commands/freeze.js';
import { registerPasskeyCommand } from './commands/passkey.js';
import { registerReadOnlyCommands } from './commands/read-only.js';
import { registerRegistryCommands } from './commands/registry.js';
import { registerReportCommand } from './commands/report.js';
import { registerRequestCommands } from './commands/request.js';
import { registerResolveCommand } from './commands/resolve.js';
import { registerSchedulesCommand } from './commands/schedules.js';
import type { Deps } from './deps.js';
import { registerHome } from './events/home.js';
import { registerBeneficiaryOptions } from './options/beneficiary.js';
import { registerIdentityOptions } from './options/identity.js';
import { registerRedisGuard } from './redis-guard.js';
import { createRoutes } from './routes.js';
import { registerAddressesView } from './views/addresses.js';
import { registerBatchView } from './views/batch.js';
import { registerBeneficiaryViews } from './views/beneficiary.js';
import { registerDenyView } from './views/deny.js';
import { registerIdentityView } from './views/identity.js';
import { registerLookupView } from './views/lookup.js';
import { registerRecordOutcomeView } from './views/record-outcome.js';
import { registerRegisterBeneficiaryView } from './views/register-beneficiary.js';
import { registerRequestViews } from './views/request.js';
import { slackClientOptions } from './web-api/client-options.js';
import { workspaceGuard } from './workspace-guard.js';

/** Slack's largest payloads (a modal's full state) are far below this; Bolt's default is 4 MiB. */
export const SLACK_BODY_LIMIT = 1024 * 1024;

export interface SlackApp {
  app: App;
  /**
   * HTTP mode: Bolt's handler for POST /slack/events — it reads the raw body itself (up to
   * `bodyLimit`) so its signature check sees exactly the bytes Slack signed. Socket Mode: none.
   */
  events: { listener: RequestListener; bodyLimit: number } | undefined;
  /** Socket Mode: connects out to Slack. HTTP mode: nothing to do (Rampart's server serves events). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Bolt's single-token mode without token verification calls auth.test on every request (an
 * extra Slack round trip before each ack); one successful answer is enough for the process.
 * Each request gets its own copy: Bolt writes the request's user onto the result, so a shared
 * object would give every later request the first user's context.userId.
 */
export function cachedAuthorize(client: WebClient, botToken: string): Authorize<boolean> {
  let result: Promise<AuthorizeResult> | undefined;
  return async () => {
    result ??= client.auth.test().then(
      (r) => ({ botToken, botId: r.bot_id, botUserId: r.user_id, teamId: r.team_id }) as AuthorizeResult,
      (err: unknown) => {
        result = undefined; // try again on the next request
        throw err;
      },
    );
    return { ...(await result) };
  };
}

export function createSlackApp(
  deps: Deps,
  /** The process's one Web API client (authorize here; approvers and the workers' notifier too). */
  client: WebClient,
  instrument: (receiver: HTTPReceiver) => void = () => {},
): SlackApp {
  const { config } = deps;
  const logger = boltLogger(deps.log);
  let receiver: Receiver;
  let events: SlackApp['events'];
  if (config.slack.appToken) {
    receiver = new SocketModeReceiver({
      appToken: config.slack.appToken,
      logger,
      // No custom routes: Bolt then opens no HTTP server of its own; the probes and /metrics
      // stay on Rampart's. apps.connections.open goes to SLACK_API_URL like every other call.
      installerOptions: { clientOptions: slackClientOptions(config.slack.apiUrl) },
    });
  } else {
    // Never started: Bolt's listener is mounted on Rampart's server instead; the ack
    // behaviour (processBeforeResponse off: the response is the ack) is unchanged.
    const http = new HTTPReceiver({
      signingSecret: config.slack.signingSecret,
      endpoints: '/slack/events',
      logger,
      processBeforeResponse: false,
      bodyLimit: SLACK_BODY_LIMIT,
    });
    instrument(http);
    receiver = http;
    events = { listener: http.requestListener, bodyLimit: SLACK_BODY_LIMIT };
  }
  const app = new App({
    authorize: cachedAuthorize(client, config.slack.botToken),
    // Bolt builds the client it hands to listeners itself (App has no door for one); same options.
    receiver,
    logger,
    clientOptions: slackClientOptions(config.slack.apiUrl),
    // No listener uses Bolt's conversation store; its default in-memory one rejects each request
    // with a fresh Error (a stack trace per command, click and view): ~15 % of a bare ack's CPU
    // in a same-run A/B (less garbage per request).
    convoStore: false,
  });

  // First, so a Redis failure anywhere below is answered in time with one sentence.
  registerRedisGuard(app, deps);

  // Requests from another workspace are refused before any listener runs.
  if (config.slack.teamId || config.slack.enterpriseId) {
    app.use(workspaceGuard({ teamId: config.slack.teamId, enterpriseId: config.slack.enterpriseId }, deps.log));
  }

  app.error(async (err) => {
    deps.log.error({ err }, 'unhandled error in a Slack listener');
  });

  // Listeners register on Rampart's routes; Bolt gets one listener per request type.
  const routes = createRoutes();
  registerReadOnlyCommands(routes, deps);
  registerRequestCommands(routes, deps);
  registerLookupView(routes, deps);
  registerRequestViews(routes, deps);
  registerApprovalActions(routes, deps);
  registerCancelWaiting(routes, deps);
  registerSeriesActions(routes, deps); // Skip next run / End series
  registerBatchActions(routes, deps); // Resume / Stop
  registerDenyView(routes, deps);
  registerOutcomeActions(routes, deps); // Record outcome… and Confirm not paid
  registerRecordOutcomeView(routes, deps);
  registerShareAction(routes, deps);
  registerHomeActions(routes, deps);
  registerRegistryCommands(routes, deps);
  registerAddressesCommand(routes, deps);
  registerSchedulesCommand(routes, deps);
  registerAddressesView(routes, deps);
  registerAddressesActions(routes, deps);
  registerIdentityView(routes, deps);
  registerBeneficiaryViews(routes, deps);
  registerIdentityOptions(routes, deps);
  registerBeneficiaryOptions(routes, deps);
  registerRegisterBeneficiaryView(routes, deps);
  registerHome(routes, deps);
  registerFreezeCommands(routes, deps);
  registerResolveCommand(routes, deps);
  registerPasskeyCommand(routes, deps);
  registerPasskeyActions(routes, deps);
  registerReportCommand(routes, deps);
  registerAssetChoices(routes, deps);
  // Listeners only; /batch joins manifest.yml when batch approvals are wired.
  registerBatchCommand(routes, deps);
  registerBatchView(routes, deps);
  routes.mount(app, { sandbox: deps.sandbox });

  const socketMode = events === undefined;
  return {
    app,
    events,
    async start() {
      if (socketMode) await app.start();
    },
    async stop() {
      if (socketMode) await app.stop();
    },
  };
}
