/**
 * The worker role's app: what runs after a state change, bound once to the worker's ports. Job
 * handlers (queue/jobs/) receive this and never reach a store, the service or Redis themselves;
 * each member answers with a JobOutcome the handler maps to done, wait or fail.
 */
import type { DestinationMode } from '../domain/address-book.js';
import type { RequestRecord } from '../domain/request.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { ControlStore } from '../store/controls.js';
import type { StartScreening } from '../store/executions.js';
import type { Registry } from '../store/registry.js';
import type { RequestStore } from '../store/requests.js';
import type { BatchRunConfig } from './batch-run.js';
import { migrateRecords } from './executions/migrate.js';
import { reconcile } from './executions/reconcile.js';
import { queueTry, type RunExecutionDeps, runExecution, settleStalled } from './executions/run.js';
import type { ProgressLimits } from './notices/batch-progress.js';
import { expireApproval } from './notices/expire.js';
import { notify } from './notices/notify.js';
import { type RemindDeps, remind } from './notices/remind.js';
import { waitOnRateLimit } from './notices/waits.js';
import type { Notifier } from './notifier.js';
import type { ApprovalJobs, Clock, NotifyRequest, ReminderJob } from './ports.js';
import { type ScheduledReportsDeps, scheduledReports } from './reports/scheduled.js';
import { type ScreeningRefreshDeps, screeningRefresh } from './screening-refresh.js';
import type { RecheckPorts } from './series/recheck.js';
import { type RunDue, runDue, type SeriesRunDeps } from './series/run-due.js';
import { takeUnknownReadings } from './unknown-reading.js';
import { done, type JobOutcome } from './worker-outcome.js';

export type { JobOutcome } from './worker-outcome.js';

export interface WorkerAppDeps extends Pick<ScheduledReportsDeps, 'snapshots' | 'weekly'> {
  service: ServiceClient;
  store: RequestStore;
  registry: Registry;
  controls: ControlStore;
  jobs: ApprovalJobs;
  log: Logger;
  now: Clock;
  /** Recorded on each execution's start (which worker holds it). */
  workerName: string;
  /** How workers talk to people (slack/notifier.ts in production). */
  notifier: Notifier;
  approvalsChannel: string;
  /** Who is reminded and escalated to, and how often. */
  reminders: Pick<RemindDeps, 'approvers' | 'escalateTo' | 'reminderAfterMs' | 'reminderMax'>;
  /** WAIT 1 after an execution's start (undefined: not checked). */
  durable?: (() => Promise<boolean>) | undefined;
  /** BATCH_PAUSE_AFTER_FAILURES, BATCH_HOLD_LIMIT and BATCH_RATE. */
  batch?: BatchRunConfig | undefined;
  /** ADDRESS_COOLDOWN: an approved address-book entry cools off this long. */
  addressCooldownMs?: number | undefined;
  /** DESTINATIONS as set (undefined: open until the book is seeded, then warn): new beneficiaries cool off outside open. */
  destinationsMode?: DestinationMode | undefined;
  /** The batch progress message's throttles, shared by every process. */
  progressLimits?: ProgressLimits | undefined;
  /** Recurring payouts: today's rules for each run's re-check, who approves, the runs' store. */
  series?:
    | (Pick<SeriesRunDeps, 'config' | 'approvers' | 'series'> &
        Required<Pick<RecheckPorts, 'apiKeys' | 'people'>> &
        RecheckPorts)
    | undefined;
  /** SCREENING and SCREENING_MAX_AGE for the start script. */
  screening?: StartScreening | undefined;
  /** SCREENING_LIST_URL's refresh (undefined: none). */
  screeningRefresh?: Pick<ScreeningRefreshDeps, 'listUrl' | 'refreshMs' | 'fetchList'> | undefined;
}

export function createWorkerApp(deps: WorkerAppDeps) {
  const { store, log, now, jobs, notifier, controls } = deps;
  // Built once, not per job: the execute path adds nothing between its start and the call.
  const execution: RunExecutionDeps = {
    service: deps.service,
    store,
    registry: deps.registry,
    controls,
    jobs,
    log,
    now,
    workerName: deps.workerName,
    ...(deps.durable ? { durable: deps.durable } : {}),
    ...(deps.batch ? { batch: deps.batch } : {}),
    ...(deps.addressCooldownMs ? { addressCooldownMs: deps.addressCooldownMs } : {}),
    ...(deps.destinationsMode ? { destinationsMode: deps.destinationsMode } : {}),
    ...(deps.screening ? { screening: deps.screening } : {}),
  };
  const seriesStore = deps.series?.series;
  const noticeDeps = {
    notifier,
    store,
    log,
    approvalsChannel: deps.approvalsChannel,
    jobs,
    progress: deps.progressLimits,
    frozen: async () => (await controls.freeze()) !== undefined,
    now,
    approvers: deps.reminders.approvers,
    runMarks: seriesStore ? (id: string) => seriesStore.runs(id) : undefined,
    unknownReadings: (record: RequestRecord) => takeUnknownReadings({ store, service: deps.service, log, now }, record),
  };
  const remindDeps: RemindDeps = { ...deps.reminders, store, queues: jobs, notifier, log, now };
  return {
    notices: {
      /**
       * Card posts and refreshes, outcome replies, direct messages, a batch's thread and progress.
       * `enqueuedAt`: when the notice was queued, to skip a batch card's redundant redraws.
       */
      post: (notice: NotifyRequest, enqueuedAt?: number) =>
        waitOnRateLimit(async () => {
          const r = await notify(noticeDeps, notice, enqueuedAt);
          return r ? { status: 'wait', ms: r.wait } : done(true);
        }),
      /** A reminder round or the escalation of a pending approval; stops once it is decided. */
      remind: (job: ReminderJob) => waitOnRateLimit(async () => done(await remind(remindDeps, job))),
      /** A pending approval's deadline passed: expired (true), or it was decided first (false). */
      expire: async (requestId: string) => done(await expireApproval({ store, jobs, now }, requestId)),
    },
    executions: {
      /** One try of one execution, at most once (app/execute-one.ts), after BATCH_RATE's turn. */
      run: (executionId: string, jobId: string) => runExecution(execution, executionId, jobId),
      /** A try's job failed for good or stalled: an execution it left executing becomes unknown. */
      settleStalled: (executionId: string, jobId: string) =>
        settleStalled({ store, jobs, log, controls }, executionId, jobId),
      /** A run from the wake list that could not start now: its try waits as a job. */
      queueTry: (executionId: string, delayMs: number) => queueTry({ store, jobs }, executionId, delayMs),
      /** A run from the wake list threw: an execution it still holds becomes unknown. */
      settleEnded: (executionId: string, runId: string) =>
        settleStalled({ store, jobs, log, controls }, executionId, runId, true),
      /** Once per worker start: records of the old format become approvals with executions. */
      migrate: () => migrateRecords({ store, log }),
      /** Records and queue in step after crashes (app/executions/reconcile.ts). */
      reconcile: () =>
        reconcile({
          store,
          queues: jobs,
          log,
          now,
          controls,
          ...(deps.batch ? { holdLimitMs: deps.batch.holdLimitMs } : {}),
        }),
    },
    series: {
      /**
       * A live series' due run (app/series/run-due.ts), then the one delayed job for the next.
       * `wokeFor`: the moment this job was set for. A job that woke before it (a worker's clock
       * behind Redis's) waits in place: a new job for the same moment would share its id, and
       * BullMQ drops an add whose id it knows, so the series would have no job left.
       */
      runDue: async (seriesId: string, wokeFor?: number): Promise<JobOutcome<RunDue | undefined>> => {
        if (!deps.series) return done(undefined);
        const r = await runDue(
          { ...deps.series, store, registry: deps.registry, controls, queues: jobs, now, service: deps.service },
          seriesId,
        );
        if (r.nextAt !== undefined && r.nextAt === wokeFor)
          return { status: 'wait', ms: Math.max(1, r.nextAt - now()) };
        if (r.nextAt !== undefined) await jobs.scheduleSeriesRun(seriesId, r.nextAt, r.nextAt - now());
        // The series' card is redrawn, so its Skip next run names the run after the one just created.
        if (r.outcome === 'created') await jobs.notify({ requestId: seriesId, kind: 'card' });
        return done(r);
      },
    },
    reports: scheduledReports({ service: deps.service, log, now, snapshots: deps.snapshots, weekly: deps.weekly }),
    /** The sanctions list's refresh from SCREENING_LIST_URL (app/screening-refresh.ts). */
    screening: screeningRefresh({
      store,
      log,
      now,
      listUrl: deps.screeningRefresh?.listUrl,
      refreshMs: deps.screeningRefresh?.refreshMs ?? 86_400_000,
      fetchList: deps.screeningRefresh?.fetchList ?? (() => Promise.reject(new Error('no fetcher'))),
    }),
  };
}

export type WorkerApp = ReturnType<typeof createWorkerApp>;
