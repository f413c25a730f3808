/**
 * What the use cases need, as ports: no Bolt, no WebClient. The composition root (src/rampart.ts)
 * passes the production objects; tests pass real local servers or in-memory fakes.
 */
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { ControlStore } from '../store/controls.js';
import type { Registry } from '../store/registry.js';
import type { RequestStore } from '../store/requests.js';
import type { ApprovalJobs, ScreeningService } from './ports.js';

/** Who may approve (APPROVERS: users and user groups, resolved when asked). */
export interface ApproverDirectory {
  isApprover(userId: string): Promise<boolean>;
}

export interface AppDeps {
  config: Config;
  service: ServiceClient;
  store: RequestStore;
  queues: ApprovalJobs;
  registry: Registry;
  /** Velocity ledger and freeze. */
  controls: ControlStore;
  approvers: ApproverDirectory;
  log: Logger;
  now: () => number;
  /** SCREENING_URL's client, when set: asked at submission beside the list. */
  screeningService?: ScreeningService | undefined;
}
