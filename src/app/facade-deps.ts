/**
 * The ports the app façade (app/index.ts) binds, one shape for every adapter. The
 * composition root passes the running ones (compose/app-deps.ts); the CLI what compose/cli-role.ts opens:
 * the service, the queues and Slack on their first use (compose/cli-app.ts).
 */
import type { ServiceClient } from '../service/client.js';
import type { ApiKeyStore } from '../store/api-keys.js';
import type { BalanceCache } from '../store/balance-cache.js';
import type { BalanceHistory } from '../store/balance-history.js';
import type { UnfreezeStore } from '../store/controls.js';
import type { PasskeyStore } from '../store/passkeys.js';
import type { SeriesStore } from '../store/series.js';
import type { StepUpTokens } from '../store/step-up-tokens.js';
import type { ApiPorts } from './api-keys/ports.js';
import type { AppDeps, ApproverDirectory } from './deps.js';
import type { ApprovalJobs } from './ports.js';
import type { PasskeyNotices, StepUpDeps } from './step-up-deps.js';

export type FacadeDeps = Pick<AppDeps, 'config' | 'store' | 'registry' | 'controls' | 'approvers' | 'log' | 'now'> & {
  /** Only reads and the identity create: money moves in the workers' executions, never here. */
  service: Pick<
    ServiceClient,
    'getBalances' | 'getWallet' | 'getIdentity' | 'getOnrampRate' | 'lookupAccount' | 'createIdentity'
  >;
  queues: ApprovalJobs;
  /** Who may create identities (IDENTITY_CREATORS, default the approvers). */
  identityCreators: ApproverDirectory;
  /** The unfreeze card and its votes. */
  unfreeze: UnfreezeStore;
  /** Approvers' passkeys and the one-time links of the passkey pages. */
  passkeys: PasskeyStore;
  stepUpTokens: StepUpTokens;
  /** The owner's direct messages and a new passkey's approval card; absent: none sent. */
  notices?: PasskeyNotices;
  /** Series' runs: skipped and ended by people, read for the lists. */
  series: SeriesStore;
  /** The HTTP API's keys, which `rampart api-keys` creates, lists and revokes. */
  apiKeys: ApiKeyStore;
  /** The HTTP API's own ports; only a process that serves the API has them. */
  api?: ApiPorts | undefined;
  /** App Home's dashboard; without it there is none. */
  dashboard?: { history: BalanceHistory; cache: BalanceCache } | undefined;
} & Pick<StepUpDeps, 'people' | 'onAttempt' | 'confirmNotPaid'>;
