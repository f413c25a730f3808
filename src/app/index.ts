/**
 * Issue 18 §3: the app façade — the use cases the adapters call, bound once to their ports.
 * Slack listeners and CLI commands receive this `app` and never reach into a store themselves
 * (biome.jsonc forbids their importing store/); the composition root builds it.
 */
import type { RequestRecord, RequestState, SealedRequest } from '../domain/request.js';
import type { Resolution } from '../domain/resolution.js';
import type { ServiceClient } from '../service/client.js';
import type { BalanceCache } from '../store/balance-cache.js';
import type { BalanceHistory } from '../store/balance-history.js';
import { createApiKey, type NewApiKey, revokeApiKey } from './api-keys.js';
import { heldAssets, walletChoices } from './asset-choices.js';
import { type ExportDeps, type ExportRange, exportAudit } from './audit-export.js';
import type { BatchInput } from './check-batch.js';
import { type CliPorts, cliPorts } from './cli-ports.js';
import { buildDashboard, type Dashboard } from './dashboard.js';
import type { AppDeps } from './deps.js';
import { readHome } from './home.js';
import { enrolLink } from './passkey-enrol.js';
import { listPasskeys } from './passkey-list.js';
import { revokePasskeys } from './passkey-revoke.js';
import { type AnnounceJobs, announce } from './post-request.js';
import { checkRegistration, type StatedRow } from './register-beneficiaries.js';
import { listBeneficiaries, listIdentities, searchBeneficiaries } from './registry-reads.js';
import { loadReport } from './report.js';
import { batchRowOutcomes, listRequests, readRequest, requestHistory } from './request-reads.js';
import { resolveUnknown } from './resolve.js';
import { type RegistrationInput, submitRegistration } from './submit-registration.js';
import { verifyApproval } from './verify-approval.js';

/** The ports the façade binds; the CLI has no approver directory, so it is not needed here. */
export type FacadeDeps = Pick<AppDeps, 'config' | 'store' | 'registry' | 'controls' | 'log' | 'now'> & {
  /** Only the reads the façade makes: the CLI opens the service on the first one. */
  service: Pick<ServiceClient, 'getBalances' | 'getWallet' | 'getIdentity'>;
  /** Only what announcing a request needs: the CLI opens the queues on the first use. */
  queues: AnnounceJobs;
  /** Issue 24: App Home's dashboard; without it there is none. */
  dashboard?: { history: BalanceHistory; cache: BalanceCache } | undefined;
  /** Issue 18 §3: what only the CLI's members use; the Slack side passes none. */
  cli?: CliPorts | undefined;
};

export function createApp(deps: FacadeDeps) {
  return {
    /** App Home's lists and the freeze (a VIEWER also sees the recent requests). */
    home: (viewer: boolean) => readHome(deps, viewer),
    /** Issue 24: App Home's dashboard, or undefined when this process keeps none. */
    dashboard(): Promise<Dashboard> | undefined {
      if (!deps.dashboard) return undefined;
      return buildDashboard({
        service: deps.service,
        store: deps.store,
        controls: deps.controls,
        ...deps.dashboard,
        wallets: deps.config.wallets,
        rules: deps.config.controls.velocity,
        zone: deps.config.reports.at?.zone ?? 'UTC',
        now: deps.now,
        log: deps.log,
      });
    },
    /** Issue 18 §3: the requests kept, for the CLI's listings. */
    requests: (limit: number, state?: RequestState) => listRequests(deps, limit, state),
    request: (id: string) => readRequest(deps, id),
    history: (id: string) => requestHistory(deps, id),
    identities: () => listIdentities(deps),
    beneficiaries: () => listBeneficiaries(deps),
    searchBeneficiaries: (query: string) => searchBeneficiaries(deps, query),
    heldAssets: (walletId: string) => heldAssets(deps, walletId),
    walletChoices: (kind: 'transfer' | 'offramp') => walletChoices(deps, kind),
    /** Every row's problems, nothing sealed (the CLI lists them beside the file's own). */
    checkRegistration: (rows: readonly StatedRow[], by: string) => checkRegistration(deps, rows, by),
    /** Existing beneficiaries, from a form or a file: one approval for every row, or the problems. */
    submitRegistration: (input: RegistrationInput) => submitRegistration(deps, input),
    /** Expiry, reminders and the card of a request just sealed (after the edge's ack). */
    announce: (frozen: SealedRequest) => announce(deps, frozen),
    // CLI commands (issue 18 §3)
    /** Issue 20: a batch's rows with their executions' states and outcomes, in row order. */
    batchRows: (record: RequestRecord) => batchRowOutcomes(deps.store, record),
    /** Issue 20: /batch's checks on a file, nothing created; loaded when used (tsx starts faster). */
    checkBatch: async (input: BatchInput) => (await import('./check-batch.js')).checkBatch(deps, input),
    exportAudit: (write: ExportDeps['write'], range: ExportRange) => exportAudit({ store: deps.store, write }, range),
    report: (days: number) =>
      loadReport(
        { store: deps.store, rules: deps.config.controls.velocity, now: deps.now },
        days,
        deps.config.reports.at?.zone ?? 'UTC',
      ),
    resolve(by: string, resolution: Resolution) {
      const { jobs, approvers } = cliPorts(deps.cli);
      return resolveUnknown({ ...deps, queues: jobs, approvers }, by, resolution);
    },
    createApiKey: (input: NewApiKey) => createApiKey({ keys: cliPorts(deps.cli).apiKeys, now: deps.now }, input),
    apiKeys: () => cliPorts(deps.cli).apiKeys.list(),
    revokeApiKey: (name: string) => revokeApiKey({ keys: cliPorts(deps.cli).apiKeys, now: deps.now }, name),
    /** Issue 22: the bootstrap enrolment link, only while no approver holds a passkey. */
    passkeyEnrolLink: (user: string) => enrolLink({ ...deps, ...cliPorts(deps.cli) }, user, true),
    passkeys: (user?: string) => listPasskeys(cliPorts(deps.cli), user),
    revokePasskeys(user: string, id?: string) {
      const { passkeys, notices } = cliPorts(deps.cli);
      const told = notices();
      return revokePasskeys({ passkeys, ...(told ? { notices: told } : {}) }, user, id);
    },
    verifyApproval: (id: string) => verifyApproval({ ...deps, passkeys: cliPorts(deps.cli).passkeys }, id),
    /** Issue 22, `rampart doctor`: approvers holding a passkey that counts at `now`. */
    passkeyHolders: (now: number) => cliPorts(deps.cli).passkeys.usableHolders(now),
  };
}

export type RampartApp = ReturnType<typeof createApp>;
