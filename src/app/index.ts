/**
 * Issue 18 §3: the app façade — the use cases the adapters call, bound once to their ports
 * (app/facade-deps.ts). Slack listeners and CLI commands receive this `app` and never reach into a
 * store themselves (biome.jsonc forbids their importing store/); one member per use case, whichever
 * adapter calls it.
 */
import type { IdentityBody, IdentityForm } from '../domain/identity-form.js';
import type { RequestRecord, RequestState, SealedRequest } from '../domain/request.js';
import type { Resolution } from '../domain/resolution.js';
import type { UnfreezeChoice } from '../store/controls.js';
import {
  type CrossBorderForm,
  confirmNigerianBeneficiary,
  forgetBeneficiaryDraft,
  lookupNigerianBeneficiary,
  type NigerianForm,
  submitCrossBorderBeneficiary,
} from './add-beneficiary.js';
import { createApiKey, type NewApiKey, revokeApiKey } from './api-keys.js';
import { heldAssets, walletChoices } from './asset-choices.js';
import { type ExportDeps, type ExportRange, exportAudit } from './audit-export.js';
import { resumeBatch, stopBatch } from './batch-control.js';
import { type BatchInput, type CheckedBatch, checkBatch } from './check-batch.js';
import { checkNewIdentity, createIdentity } from './create-identity.js';
import { buildDashboard, type Dashboard } from './dashboard.js';
import { approve, authorise, cancel, checkDeny, deny } from './decide.js';
import type { FacadeDeps } from './facade-deps.js';
import { freeze, startUnfreeze, voteUnfreeze } from './freeze.js';
import { addFreezeReason } from './freeze-reason.js';
import { readHome } from './home.js';
import { checkIdentity, searchIdentities } from './identities.js';
import { offerPasskeyApproval, offerPasskeyRemoval } from './passkey-decide.js';
import { enrolLink } from './passkey-enrol.js';
import { listPasskeys } from './passkey-list.js';
import { revokePasskeys } from './passkey-revoke.js';
import { ackThenAnnounce, announce } from './post-request.js';
import { lookupAccount, readBalances, readRate } from './reads.js';
import { checkRegistration, type StatedRow } from './register-beneficiaries.js';
import { listBeneficiaries, listIdentities, searchBeneficiaries } from './registry-reads.js';
import { loadReport } from './report.js';
import { type AgainRowsOutcome, againRows, checkAgain, type SubmitAgain, submitAgain } from './request-again.js';
import { batchRowOutcomes, listRequests, readRequest, requestHistory } from './request-reads.js';
import { resolveUnknown } from './resolve.js';
import { offerStepUp } from './step-up.js';
import { type BatchSubmission, batchPolicy, submitBatch } from './submit-batch.js';
import type { SubmitBudget } from './submit-budget.js';
import { type RegistrationInput, submitRegistration } from './submit-registration.js';
import { type Submission, type SubmitDeps, submitRequest } from './submit-request.js';
import { verifyApproval } from './verify-approval.js';

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
    /** Issue 24: /report's and `rampart report`'s figures over the last `days`, in the report's time zone. */
    report: (days: number) =>
      loadReport(
        { store: deps.store, rules: deps.config.controls.velocity, now: deps.now },
        days,
        deps.config.reports.at?.zone ?? 'UTC',
      ),
    /** Issue 19: /resolve and `rampart resolve` on an outcome-unknown execution. */
    resolve: (user: string, resolution: Resolution) => resolveUnknown(deps, user, resolution),
    // Slack listeners (issue 18 §3); `rampart batch check` and `passkeys list` share batch.check, passkey.list
    /** Acks (a late ack is only logged), then announces: the card goes out whatever the ack did. */
    ackThenAnnounce: (ack: () => Promise<void>, frozen: SealedRequest) => ackThenAnnounce(deps, ack, frozen),
    /** The request form; the edge bounds the live checks and the create by Slack's 3 s. */
    submitRequest: (s: Submission, edge: Pick<SubmitDeps, 'withinBudget' | 'budget'>) =>
      submitRequest({ ...deps, ...edge }, s),
    /** /balance, /rate and /lookup (and App Home's balances, the share button). */
    reads: {
      balances: (targets: string[]) => readBalances({ ...deps, wallets: deps.config.wallets }, targets),
      rate: (currency?: string) => readRate(deps, currency),
      lookup: (text: string) => lookupAccount(deps, text),
    },
    /** The clicks on a card and the deny form; `authorise`: may this person approve. */
    decide: {
      authorise: (user: string) => authorise(deps, user),
      approve: (requestId: string, user: string, warningsChecked: boolean) =>
        approve(deps, requestId, user, undefined, warningsChecked),
      checkDeny: (requestId: string, user: string) => checkDeny(deps, requestId, user),
      deny: (requestId: string, user: string, reason: string) => deny(deps, requestId, user, reason),
      cancel: (requestId: string, user: string) => cancel(deps, requestId, user),
    },
    /** Issue 20: the batch form, Resume / Stop, and "Request again". */
    batch: {
      check: (input: BatchInput) => checkBatch(deps, input),
      policy: (checked: CheckedBatch) => batchPolicy(deps.config, checked),
      submit: (b: BatchSubmission) => submitBatch(deps, b),
      resume: (requestId: string, user: string) => resumeBatch(deps, requestId, user),
      stop: (requestId: string, user: string) => stopBatch(deps, requestId, user),
      againRows: (requestId: string, user: string) => againRows(deps, requestId, user),
      checkAgain: (again: Extract<AgainRowsOutcome, { kind: 'rows' }>) => checkAgain(deps, again),
      submitAgain: (s: SubmitAgain) => submitAgain(deps, s),
    },
    /** Issue 13: /freeze, /unfreeze and the unfreeze card's buttons. */
    freeze: {
      start: (user: string, reason: string) => freeze(deps, user, reason),
      addReason: (user: string, reason: string) => addFreezeReason(deps, user, reason),
      proposeUnfreeze: (user: string) => startUnfreeze(deps, user),
      voteUnfreeze: (user: string, proposalId: string, choice: UnfreezeChoice) =>
        voteUnfreeze(deps, user, proposalId, choice),
      /** Where the unfreeze card was posted, so later votes update it in place. */
      keepUnfreezeCard: (card: { channel: string; ts: string }) => deps.unfreeze.setCard(card),
    },
    /** Issue 11 and spec 4.5: a typed identity id checked live, the picker, a new BVN identity. */
    identity: {
      check: (id: string, by: string) => checkIdentity(deps, id, by),
      search: (query: string, by: string, deadlineMs: number) => searchIdentities(deps, query, by, deadlineMs),
      checkNew: (form: IdentityForm, user: string) => checkNewIdentity(deps, form, user),
      create: (body: IdentityBody, user: string) => createIdentity(deps, body, user),
    },
    /** Issue 5: a new beneficiary, Nigerian (looked up, then confirmed) or cross-border. */
    beneficiary: {
      lookupNigerian: (f: NigerianForm) => lookupNigerianBeneficiary(deps, f),
      confirmNigerian: (c: { token: string; user: string; submission: string }, budget?: SubmitBudget) =>
        confirmNigerianBeneficiary(deps, c, budget),
      forgetDraft: (token: string) => forgetBeneficiaryDraft(deps, token),
      submitCrossBorder: (f: CrossBorderForm, budget?: SubmitBudget) => submitCrossBorderBeneficiary(deps, f, budget),
    },
    /** Issue 22: /passkey, the passkey buttons, and the link offered for a step-up approval. */
    passkey: {
      /** One approver's passkeys, or (the CLI, no user) every approver's. */
      list: (user?: string) => listPasskeys(deps, user),
      enrolLink: (user: string) => enrolLink(deps, user, false),
      offerApproval: (approver: string, owner: string, id: string) => offerPasskeyApproval(deps, approver, owner, id),
      offerRemoval: (owner: string, id: string) => offerPasskeyRemoval(deps, owner, id),
      offerStepUp: (requestId: string, user: string, purpose: 'approve' | 'resume', warningsChecked: boolean) =>
        offerStepUp(deps, requestId, user, purpose, warningsChecked),
      /** A link to confirm an unknown outcome as not paid with a passkey (app/step-up-confirm.ts). */
      offerNotPaid: (executionId: string, user: string, proposal?: string) =>
        offerStepUp(deps, executionId, user, 'confirm-not-paid', false, proposal),
    },
    // CLI commands (issue 18 §3)
    /** Issue 20: a batch's rows with their executions' states and outcomes, in row order. */
    batchRows: (record: RequestRecord) => batchRowOutcomes(deps.store, record),
    exportAudit: (write: ExportDeps['write'], range: ExportRange) => exportAudit({ store: deps.store, write }, range),
    createApiKey: (input: NewApiKey) => createApiKey({ keys: deps.apiKeys, now: deps.now }, input),
    apiKeys: () => deps.apiKeys.list(),
    revokeApiKey: (name: string) => revokeApiKey({ keys: deps.apiKeys, now: deps.now }, name),
    /** Issue 22: the bootstrap enrolment link (server access), only while no approver holds a passkey. */
    passkeyEnrolLink: (user: string) => enrolLink(deps, user, true),
    revokePasskeys: (user: string, id?: string) => revokePasskeys(deps, user, id),
    verifyApproval: (id: string) => verifyApproval(deps, id),
    /** Issue 22, `rampart doctor`: approvers holding a passkey that counts at `now`. */
    passkeyHolders: (now: number) => deps.passkeys.usableHolders(now),
  };
}

export type RampartApp = ReturnType<typeof createApp>;
