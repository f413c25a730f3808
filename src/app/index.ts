/**
 * The app façade — the one door: the use cases every adapter calls, bound once to their ports
 * (app/facade-deps.ts) and grouped by capability, not by who calls them. Adapters receive this
 * `app` and never reach a store, the service or the queues (biome.jsonc, and
 * test/unit/adapter-imports.test.ts through middle files); no member hands one out
 * (test/unit/app-interface.test.ts).
 */

import type { Actor } from '../domain/actor.js';
import type { ViewState } from '../domain/approval.js';
import type { IdentityBody, IdentityForm } from '../domain/identity-form.js';
import type { RequestRecord, SealedRequest } from '../domain/request.js';
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
import { keyMembers } from './api-keys/members.js';
import { createApiKey, type NewApiKey, revokeApiKey } from './api-keys.js';
import { cancelWaiting } from './approvals/cancel-waiting.js';
import { heldAssets, walletChoices } from './asset-choices.js';
import { type ExportDeps, type ExportRange, exportAudit } from './audit-export.js';
import { resumeBatch, stopBatch } from './batch-control.js';
import { type BatchInput, type CheckedBatch, checkBatch } from './check-batch.js';
import { type ConfirmPasskey, confirmNotPaid } from './confirm-not-paid.js';
import { checkNewIdentity, createIdentity } from './create-identity.js';
import { buildDashboard, type Dashboard } from './dashboard.js';
import { approve, authorise, cancel, checkDeny, deny } from './decide.js';
import { destinationMode, listEntries, removeEntry, seedFromPaid } from './destinations/entries.js';
import { type EntriesInput, submitEntries } from './destinations/submit-entries.js';
import { unsentByEntry } from './destinations/unsent.js';
import type { FacadeDeps } from './facade-deps.js';
import { freeze, startUnfreeze, voteUnfreeze } from './freeze.js';
import { addFreezeReason } from './freeze-reason.js';
import { readHome } from './home.js';
import { checkIdentity, searchIdentities } from './identities.js';
import { outcomeFacts } from './outcome-facts.js';
import { offerPasskeyApproval, offerPasskeyRemoval } from './passkey-decide.js';
import { enrolLink } from './passkey-enrol.js';
import { listPasskeys } from './passkey-list.js';
import { revokePasskeys } from './passkey-revoke.js';
import { passkeyPages } from './passkeys/pages.js';
import { type FormSubmission, submitForm } from './payments/submit-form.js';
import { ackThenAnnounce, announce } from './post-request.js';
import { lookupAccount, readBalances, readRate } from './reads.js';
import { checkRegistration, type StatedRow } from './register-beneficiaries.js';
import { listBeneficiaries, listIdentities, searchBeneficiaries } from './registry-reads.js';
import { loadReport } from './report.js';
import { type AgainRowsOutcome, againRows, checkAgain, type SubmitAgain, submitAgain } from './request-again.js';
import { batchRowOutcomes, listRequests, readRequest, requestHistory } from './request-reads.js';
import { resolveUnknown, type Via } from './resolve.js';
import { type LoadRequest, loadScreening, screeningStatus } from './screening-load.js';
import { endSeries, skipRun } from './series/actions.js';
import { comingUp, listSeries, showSeries } from './series/reads.js';
import { offerStepUp } from './step-up.js';
import { keepLinkMessage } from './step-up-page.js';
import { type BatchSubmission, batchPolicy, submitBatch } from './submit-batch.js';
import type { SubmitBudget } from './submit-budget.js';
import { type RegistrationInput, submitRegistration } from './submit-registration.js';
import type { SubmitDeps } from './submit-request.js';
import { verifyApproval } from './verify-approval.js';

/** Recorded "from the CLI" when the terminal acted; the API never resolves. */
const viaOf = (actor: Actor): Via => (actor.via === 'cli' ? 'cli' : 'slack');

export function createApp(deps: FacadeDeps) {
  // Calls made with an API key (the HTTP API), by capability.
  const withKey = keyMembers(deps);
  return {
    /** Money requests: the form, the API, and what follows a sealed request. */
    payments: {
      /**
       * The request form, a single payment or a series (its repeat fields read); the edge bounds
       * the live checks and the create by Slack's 3 s.
       */
      submit: (actor: Actor, s: Omit<FormSubmission, 'requester'>, edge: Pick<SubmitDeps, 'withinBudget' | 'budget'>) =>
        submitForm({ ...deps, ...edge }, { ...s, requester: actor.user }),
      /** Acks (a late ack is only logged), then announces: the card goes out whatever the ack did. */
      ackThenAnnounce: (ack: () => Promise<void>, sealed: SealedRequest) => ackThenAnnounce(deps, ack, sealed),
      /** Expiry, reminders and the card of a request just sealed (after the edge's ack). */
      announce: (sealed: SealedRequest) => announce(deps, sealed),
      ...withKey.payments,
    },
    /** The batch form and file, Resume / Stop, "Request again", and a batch's rows. */
    batches: {
      check: (input: BatchInput) => checkBatch(deps, input),
      policy: (checked: CheckedBatch) => batchPolicy(deps.config, checked),
      submit: (actor: Actor, b: Omit<BatchSubmission, 'requester'>) =>
        submitBatch(deps, { ...b, requester: actor.user }),
      resume: (requestId: string, actor: Actor) => resumeBatch(deps, requestId, actor.user),
      stop: (requestId: string, actor: Actor) => stopBatch(deps, requestId, actor.user),
      againRows: (requestId: string, actor: Actor) => againRows(deps, requestId, actor.user),
      checkAgain: (again: Extract<AgainRowsOutcome, { kind: 'rows' }>) => checkAgain(deps, again),
      submitAgain: (actor: Actor, s: Omit<SubmitAgain, 'user'>) => submitAgain(deps, { ...s, user: actor.user }),
      /** A batch's rows with their executions' states and outcomes, in row order. */
      rows: (record: RequestRecord) => batchRowOutcomes(deps.store, record),
      ...withKey.batches,
    },
    /** The decisions on a pending approval; `authorise`: may this person approve. */
    approvals: {
      authorise: (user: string) => authorise(deps, user),
      approve: (requestId: string, actor: Actor, warningsChecked: boolean) =>
        approve(deps, requestId, actor.user, undefined, warningsChecked),
      checkDeny: (requestId: string, actor: Actor) => checkDeny(deps, requestId, actor.user),
      deny: (requestId: string, actor: Actor, reason: string) => deny(deps, requestId, actor.user, reason),
      cancel: (requestId: string, actor: Actor) => cancel(deps, requestId, actor.user),
      /** Inside the wait before runAt: any one approver or the requester. */
      cancelWaiting: (requestId: string, actor: Actor) => cancelWaiting(deps, requestId, actor),
      /** `rampart verify`: every passkey vote re-checked against the sealed calls. */
      verify: (id: string) => verifyApproval(deps, id),
      ...withKey.approvals,
    },
    /** An execution whose outcome is unknown: paid with proof, or not paid by two people. */
    executions: {
      /** /resolve and `rampart resolve`: paid, or a not-paid proposal. */
      resolve: (actor: Actor, resolution: Resolution) => resolveUnknown(deps, actor.user, resolution, viaOf(actor)),
      /** The Record outcome form's facts and evidence (`withNow`: the wallet's balances read now too). */
      outcomeFacts: (user: string, executionId: string, withNow: boolean) =>
        outcomeFacts(deps, user, executionId, withNow),
      /** A second approver confirms a not-paid proposal (`passkey`: its verified proof, when needed). */
      confirmNotPaid: (actor: Actor, executionId: string, proposal: string, passkey?: ConfirmPasskey) =>
        confirmNotPaid(deps, actor.user, executionId, proposal, viaOf(actor), passkey),
    },
    /** /freeze, /unfreeze and the unfreeze card's buttons. */
    freeze: {
      start: (actor: Actor, reason: string) => freeze(deps, actor.user, reason),
      addReason: (actor: Actor, reason: string) => addFreezeReason(deps, actor.user, reason),
      proposeUnfreeze: (actor: Actor) => startUnfreeze(deps, actor.user),
      voteUnfreeze: (actor: Actor, proposalId: string, choice: UnfreezeChoice) =>
        voteUnfreeze(deps, actor.user, proposalId, choice),
      /** Where the unfreeze card was posted, so later votes update it in place. */
      keepUnfreezeCard: (card: { channel: string; ts: string }) => deps.unfreeze.setCard(card),
    },
    /** The sanctions list: `rampart screening load` and `status` (docs/screening.md). */
    screening: {
      load: (r: LoadRequest) => loadScreening(deps, r),
      status: () => screeningStatus(deps),
    },
    /** Who and where money may go: identities and beneficiaries (spec 4.5, 4.6). */
    registry: {
      identities: () => listIdentities(deps),
      beneficiaries: () => listBeneficiaries(deps),
      searchBeneficiaries: (query: string) => searchBeneficiaries(deps, query),
      /** Every row's problems, nothing sealed (the CLI lists them beside the file's own). */
      checkRegistration: (rows: readonly StatedRow[], by: string) => checkRegistration(deps, rows, by),
      /** Existing beneficiaries, from a form or a file: one approval for every row, or the problems. */
      submitRegistration: (input: RegistrationInput) => submitRegistration(deps, input),
      checkIdentity: (id: string, by: string) => checkIdentity(deps, id, by),
      searchIdentities: (query: string, by: string, deadlineMs: number) =>
        searchIdentities(deps, query, by, deadlineMs),
      checkNewIdentity: (form: IdentityForm, user: string) => checkNewIdentity(deps, form, user),
      createIdentity: (body: IdentityBody, user: string) => createIdentity(deps, body, user),
      /** A new beneficiary, Nigerian (looked up, then confirmed) or cross-border. */
      lookupNigerian: (f: NigerianForm) => lookupNigerianBeneficiary(deps, f),
      confirmNigerian: (c: { token: string; user: string; submission: string }, budget?: SubmitBudget) =>
        confirmNigerianBeneficiary(deps, c, budget),
      forgetBeneficiaryDraft: (token: string) => forgetBeneficiaryDraft(deps, token),
      submitCrossBorder: (f: CrossBorderForm, budget?: SubmitBudget) => submitCrossBorderBeneficiary(deps, f, budget),
    },
    /** The address book: entries added through an approval, cooled off, removed at once. */
    destinations: {
      list: () => listEntries(deps),
      /** Entry id → payments not yet sent that removing it stops (the Remove confirmation says it). */
      unsent: () => unsentByEntry(deps),
      mode: () => destinationMode(deps),
      /** Entries from the form or a file: one approval for all of them, or every problem. */
      submit: (input: EntriesInput) => submitEntries(deps, input),
      /** Any approver, at once: what is sealed with the entry and unsent is cancelled at its start. */
      remove: (actor: Actor, id: string) => removeEntry(deps, actor, id),
      seedFromPaid: (actor: Actor, reason: string) => seedFromPaid(deps, actor, reason),
    },
    /** /passkey, its buttons, the step-up links, and the passkey pages. */
    passkeys: {
      /** One approver's passkeys, or (the CLI, no user) every approver's. */
      list: (user?: string) => listPasskeys(deps, user),
      enrolLink: (user: string) => enrolLink(deps, user, false),
      /** The bootstrap enrolment link (server access), only while no approver holds a passkey. */
      bootstrapLink: (user: string) => enrolLink(deps, user, true),
      offerApproval: (approver: Actor, owner: string, id: string) =>
        offerPasskeyApproval(deps, approver.user, owner, id),
      offerRemoval: (owner: string, id: string) => offerPasskeyRemoval(deps, owner, id),
      offerStepUp: (requestId: string, actor: Actor, purpose: 'approve' | 'resume', warningsChecked: boolean) =>
        offerStepUp(deps, requestId, actor.user, purpose, warningsChecked),
      /** A link to confirm an unknown outcome as not paid with a passkey (app/step-up-confirm.ts). */
      offerNotPaid: (executionId: string, actor: Actor, proposal?: string) =>
        offerStepUp(deps, executionId, actor.user, 'confirm-not-paid', false, proposal),
      /**
       * The private link message's response URL (from its button's click), kept so the message is
       * replaced once the link is used.
       */
      keepLinkMessage: (actor: Actor, purpose: 'approve' | 'resume', subject: string, responseUrl: string) =>
        keepLinkMessage(deps, actor.user, purpose, subject, responseUrl),
      revoke: (user: string, id?: string) => revokePasskeys(deps, user, id),
      /** `rampart doctor`: approvers holding a passkey that counts at `now`. */
      holders: (now: number) => deps.passkeys.usableHolders(now),
      /** The pages: a link's page and options, then the passkey verified and the decision made. */
      ...passkeyPages(deps),
    },
    /** The HTTP API's keys: made, listed and revoked from the CLI; checked on every call. */
    apiKeys: {
      create: (input: NewApiKey) => createApiKey({ keys: deps.apiKeys, now: deps.now }, input),
      revoke: (name: string) => revokeApiKey({ keys: deps.apiKeys, now: deps.now }, name),
      ...withKey.apiKeys,
    },
    /** Figures over time: /report, App Home's dashboard, the audit export. */
    reports: {
      /** /report's and `rampart report`'s figures over the last `days`, in the report's time zone. */
      report: (days: number) =>
        loadReport(
          { store: deps.store, rules: deps.config.controls.velocity, now: deps.now },
          days,
          deps.config.reports.at?.zone ?? 'UTC',
        ),
      /** App Home's dashboard, or undefined when this process keeps none. */
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
      exportAudit: (write: ExportDeps['write'], range: ExportRange) => exportAudit({ store: deps.store, write }, range),
    },
    /** Recurring payouts: skip one run, end a series (domain/rules/series-actions.ts), and their reads. */
    series: {
      /** Any approver, before run k is created; the answer says it in one sentence (domain/series-answers.ts). */
      skipRun: (actor: Actor, seriesId: string, k: number) => skipRun(deps, actor, seriesId, k),
      /** Any approver or the requester; a created but unsent run is cancelled in the same step. */
      end: (actor: Actor, seriesId: string) => endSeries(deps, actor, seriesId),
      /** Every series, live and pending first, newest first within each. */
      list: (limit?: number) => listSeries(deps, limit),
      show: (id: string) => showSeries(deps, id),
      /** The next runs across live series, soonest first (App Home's "Coming up"). */
      comingUp: (limit?: number) => comingUp(deps, limit),
    },
    /** Reads that decide nothing: /balance, /rate, /lookup, App Home, the requests kept. */
    reads: {
      balances: (targets: string[]) => readBalances({ ...deps, wallets: deps.config.wallets }, targets),
      rate: (currency?: string) => readRate(deps, currency),
      lookup: (text: string) => lookupAccount(deps, text),
      /** App Home's lists and the freeze (a VIEWER also sees the recent requests). */
      home: (viewer: boolean) => readHome(deps, viewer),
      requests: (limit: number, state?: ViewState) => listRequests(deps, limit, state),
      request: (id: string) => readRequest(deps, id),
      history: (id: string) => requestHistory(deps, id),
      heldAssets: (walletId: string) => heldAssets(deps, walletId),
      walletChoices: (kind: 'transfer' | 'offramp') => walletChoices(deps, kind),
      ...withKey.reads,
    },
  };
}

export type RampartApp = ReturnType<typeof createApp>;
