/**
 * Rampart's Prometheus metrics. One registry per Rampart instance, so several
 * instances in one process (tests, bench) never share counters. Labels are closed sets —
 * kinds, states, operations, outcomes, queues — never ids, amounts, addresses or people.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ViewState } from '../domain/approval.js';
import type { RequestKind } from '../domain/request.js';

/** How a service call ended, as a label: the service answered, refused, or never/maybe got it. */
export type CallOutcome = 'ok' | 'refused' | 'not_sent' | 'ambiguous' | 'invalid';

export const OPEN_STATES = ['pending', 'approved', 'executing'] as const;
export type OpenState = (typeof OPEN_STATES)[number];

/** What the scrape-time gauges read from Redis and BullMQ; set once the store and queues exist. */
export interface MetricSources {
  /** Per open state: how many requests, and since when the oldest has been in it (ms). */
  open(): Promise<Record<OpenState, { count: number; oldestSince: number | undefined }>>;
  /** Per queue, BullMQ's job counts by state. */
  queueJobs(): Promise<Record<string, Record<string, number>>>;
  now(): number;
  /** Idempotency records kept per API key name (each key keeps at most 10,000). */
  idempotencyRecords?(): Promise<Record<string, number>>;
  /** What the audit webhook still owes (absent without AUDIT_WEBHOOK_URL). */
  auditBacklog?(): Promise<{ events: number; oldestAt: number | undefined }>;
}

export interface Metrics {
  registry: Registry;
  requestChanged(kind: RequestKind, state: ViewState): void;
  serviceCall(operation: string, outcome: CallOutcome, seconds: number): void;
  slackAck(kind: string, seconds: number): void;
  /** Every passkey attempt, by purpose and outcome (ok, invalid, limited, failed…). */
  stepUpAttempt(purpose: string, outcome: string): void;
  watch(sources: MetricSources): void;
  /** The Prometheus text exposition. */
  render(): Promise<string>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let sources: MetricSources | undefined;

  const requests = new Counter({
    name: 'rampart_requests_total',
    help: 'Requests that entered each state, by kind (transfer, offramp, beneficiary).',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'rampart_api_idempotency_records',
    help: 'Idempotency records kept per API key (at most 10,000 each; the oldest go first).',
    labelNames: ['key'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!sources?.idempotencyRecords) return;
      for (const [key, n] of Object.entries(await sources.idempotencyRecords())) this.set({ key }, n);
    },
  });
  const stepUps = new Counter({
    name: 'rampart_step_up_attempts_total',
    help: 'Passkey step-up and enrolment attempts, by purpose and outcome.',
    labelNames: ['purpose', 'outcome'] as const,
    registers: [registry],
  });
  const unknown = new Counter({
    name: 'rampart_unknown_outcomes_total',
    help: 'Money or creation calls whose outcome is unknown: someone must check the service by hand.',
    registers: [registry],
  });
  const serviceCalls = new Histogram({
    name: 'rampart_service_call_duration_seconds',
    help: 'Duration of each call to the wallet service (one try; reads may retry).',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20],
    registers: [registry],
  });
  const acks = new Histogram({
    name: 'rampart_slack_ack_duration_seconds',
    help: 'Time from a Slack request arriving to its acknowledgement (Slack allows 3 s).',
    labelNames: ['kind'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3],
    registers: [registry],
  });
  new Gauge({
    name: 'rampart_requests_open',
    help: 'Requests now pending, approved or executing (read from Redis at scrape time).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      if (!sources) return;
      const open = await sources.open();
      for (const state of OPEN_STATES) this.set({ state }, open[state].count);
    },
  });
  new Gauge({
    name: 'rampart_requests_oldest_age_seconds',
    help: 'How long the oldest request has been in each open state; 0 when none is.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      if (!sources) return;
      const open = await sources.open();
      const now = sources.now();
      for (const state of OPEN_STATES) {
        const since = open[state].oldestSince;
        this.set({ state }, since === undefined ? 0 : Math.max(0, (now - since) / 1000));
      }
    },
  });
  new Gauge({
    name: 'rampart_queue_jobs',
    help: 'BullMQ jobs by queue and state (read at scrape time).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      if (!sources) return;
      for (const [queue, counts] of Object.entries(await sources.queueJobs()))
        for (const [state, n] of Object.entries(counts)) this.set({ queue, state }, n);
    },
  });

  new Gauge({
    name: 'rampart_audit_webhook_undelivered_events',
    help: 'Audit events not yet delivered to AUDIT_WEBHOOK_URL after a failed try (read at scrape time).',
    registers: [registry],
    async collect() {
      if (sources?.auditBacklog) this.set((await sources.auditBacklog()).events);
    },
  });
  new Gauge({
    name: 'rampart_audit_webhook_oldest_undelivered_age_seconds',
    help: 'How long the oldest undelivered audit event has waited; 0 when none waits.',
    registers: [registry],
    async collect() {
      if (!sources?.auditBacklog) return;
      const { oldestAt } = await sources.auditBacklog();
      this.set(oldestAt === undefined ? 0 : Math.max(0, (sources.now() - oldestAt) / 1000));
    },
  });

  return {
    registry,
    requestChanged(kind, state) {
      requests.inc({ kind, state });
      if (state === 'unknown') unknown.inc();
    },
    serviceCall(operation, outcome, seconds) {
      serviceCalls.observe({ operation, outcome }, seconds);
    },
    slackAck(kind, seconds) {
      acks.observe({ kind }, seconds);
    },
    stepUpAttempt(purpose, outcome) {
      // Closed label sets: an unexpected outcome is counted as "other", never as free text.
      stepUps.inc({ purpose, outcome: /^[a-z-]{1,20}$/.test(outcome) ? outcome : 'other' });
    },
    watch(s) {
      sources = s;
    },
    render: () => registry.metrics(),
  };
}
