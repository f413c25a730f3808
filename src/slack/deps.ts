/**
 * What every Slack handler receives. Built once in main.ts (production defaults) and by tests
 * (real local servers) through the same door.
 */
import type { RampartApp } from '../app/index.js';
import type { PasskeyNotices } from '../app/step-up-deps.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Queues } from '../queue/queues.js';
import type { ServiceClient } from '../service/client.js';
import type { BalanceCache } from '../store/balance-cache.js';
import type { BalanceHistory } from '../store/balance-history.js';
import type { ControlStore, UnfreezeStore } from '../store/controls.js';
import type { PasskeyStore } from '../store/passkeys.js';
import type { Registry } from '../store/registry.js';
import type { RequestStore } from '../store/requests.js';
import type { StepUpTokens } from '../store/step-up-tokens.js';
import type { ApproverDirectory } from './approvers.js';
import type { HomeRefresher } from './home-refresh.js';

export interface Deps {
  config: Config;
  service: ServiceClient;
  store: RequestStore;
  queues: Queues;
  approvers: ApproverDirectory;
  /** Who may create identities (IDENTITY_CREATORS, default the approvers). */
  identityCreators: ApproverDirectory;
  registry: Registry;
  /** Issue 13: velocity ledger and freeze. */
  controls: ControlStore;
  unfreeze: UnfreezeStore;
  log: Logger;
  now: () => number;
  /** Issue 22: approvers' passkeys and the one-time links of the passkey pages. */
  passkeys: PasskeyStore;
  stepUpTokens: StepUpTokens;
  /** Issue 22: the owner's direct messages and a new passkey's approval card. */
  notices?: PasskeyNotices;
  /** True when running against the built-in sandbox: every message says so. */
  sandbox: boolean;
  /** Issue 24: App Home's dashboard (balance history and the once-a-minute balance reads). */
  dashboard?: { history: BalanceHistory; cache: BalanceCache };
  /** Issue 18 §3: the use cases bound to the ports above; listeners read and submit through it. */
  app: RampartApp;
  /** Issue 24: App Home refreshed on outcomes and freezes, at most once a minute per person. */
  homeRefresh?: Pick<HomeRefresher, 'opened' | 'changed'>;
}
