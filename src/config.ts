/**
 * Environment → one typed, validated settings object. Nothing else reads process.env.
 * Every problem is collected and reported at once, by name, never echoing a secret's value.
 */
import { z } from 'zod';
import { parseScreening, type ScreeningConfig } from './config-screening.js';
import { thresholdProblems } from './domain/policy.js';
import { parseRate, type Rate } from './domain/rate.js';
import { sandboxWalletsSetting } from './domain/sandbox-wallets.js';
import { urlCredentials } from './domain/url-credentials.js';
import { parseVelocityLimits, type VelocityRule } from './domain/velocity.js';
import type { WalletAlias } from './domain/wallets.js';
import { ConfigError } from './errors.js';

export type { ScreeningConfig, WalletAlias };

import { parseWeeklyAt, type WeeklyAt } from './domain/weekly-schedule.js';

/** Query parameter names the spec leaves unnamed (README "Choices"); SERVICE_PARAM_* override them. */
export interface QueryParams {
  wallet: string;
  balances: string;
  identity: string;
  rate: string;
}

export const DEFAULT_QUERY_PARAMS: Readonly<QueryParams> = {
  wallet: 'wallet_id',
  balances: 'wallet_id',
  identity: 'identity_id',
  rate: 'currency',
};

const DURATION = /^(\d+)\s*(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((s, ctx) => {
      const ms = parseDuration(s);
      if (ms === undefined || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration such as 30s, 15m, 24h or 2d' });
        return z.NEVER;
      }
      return ms;
    });

const port = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a port number such as 3000' })
    .int('must be a whole number')
    .min(0)
    .max(65535, 'must be at most 65535')
    .default(fallback);
const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/**
 * An http(s) URL written out in full; a mistyped scheme (`htps://`, `https:/host`,
 * `ftp://`) is refused at start-up rather than failing later or leaking through an error.
 */
const httpUrl = (example: string) =>
  optionalText.refine(
    (s) => s === undefined || (/^https?:\/\/[^/\s]/i.test(s) && URL.canParse(s)),
    `must be an http:// or https:// URL such as ${example}; correct the scheme and address`,
  );

const SLACK_USER_OR_GROUP = /^[USW][A-Z0-9]{2,}$/;

export function parseWallets(text: string, problems: string[]): WalletAlias[] {
  const wallets: WalletAlias[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [alias, id, ...rest] = part.split('=').map((s) => s.trim());
    if (!alias || !id || rest.length > 0 || !/^[a-z0-9][a-z0-9_-]*$/i.test(alias)) {
      problems.push(`WALLETS "${part}" is not alias=wallet_id (alias of letters, digits, - or _)`);
      continue;
    }
    if (wallets.some((w) => w.alias.toLowerCase() === alias.toLowerCase())) {
      problems.push(`WALLETS alias "${alias}" is listed twice`);
    }
    wallets.push({ alias: alias.toLowerCase(), id });
  }
  if (wallets.length === 0) problems.push('WALLETS must list at least one alias=wallet_id');
  return wallets;
}

/** Whether Intl knows this IANA time zone name. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** "USDC=10000,cNGN=15000000" or one number for every asset code. */
function parseThresholds(text: string, ctx: z.RefinementCtx): Record<string, string> | undefined {
  if (text.trim() === '') return undefined;
  const out: Record<string, string> = {};
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of parts) {
    const [code, value] = part.includes('=') ? part.split('=').map((s) => s.trim()) : ['*', part];
    if (!code || !value || !/^\d+(\.\d+)?$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: `"${part}" is not a number or CODE=number (e.g. USDC=10000)` });
      continue;
    }
    out[code.toUpperCase()] = value;
  }
  // Refused here rather than at every submission.
  for (const problem of thresholdProblems(out)) ctx.addIssue({ code: 'custom', message: problem });
  return out;
}

export interface ClusterNode {
  host: string;
  port: number;
}

/** "10.0.0.1:7000,10.0.0.2:7000"; empty means no cluster. */
function parseClusterNodes(text: string, ctx: z.RefinementCtx): ClusterNode[] | undefined {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return undefined;
  const nodes: ClusterNode[] = [];
  for (const part of parts) {
    const m = /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(part);
    const port = Number(m?.[2]);
    if (!m?.[1] || port < 1 || port > 65535) {
      ctx.addIssue({ code: 'custom', message: `"${part}" is not host:port, e.g. 10.0.0.1:7000` });
      continue;
    }
    nodes.push({ host: m[1].replace(/^\[|\]$/g, ''), port });
  }
  return nodes;
}

/**
 * Every key Rampart owns must land in one hash slot on a cluster (its scripts touch several
 * keys at once; BullMQ needs its queue keys together): a prefix without a hash tag (Redis's
 * rule: the first "{" and the next "}" with something between) is wrapped in one.
 */
export function hashTagged(prefix: string): string {
  const open = prefix.indexOf('{');
  const close = open === -1 ? -1 : prefix.indexOf('}', open + 1);
  return close > open + 1 ? prefix : `{${prefix}}`;
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  PORT: port(3000),
  SLACK_BOT_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText.refine((s) => s === undefined || s.startsWith('xapp-'), 'must start with xapp-'),
  SLACK_API_URL: httpUrl('https://slack.com/api/'),
  SLACK_TEAM_ID: optionalText.refine(
    (s) => s === undefined || /^T[A-Z0-9]{2,}$/.test(s),
    'must be a workspace id such as T0123ABCD',
  ),
  SLACK_ENTERPRISE_ID: optionalText.refine(
    (s) => s === undefined || /^E[A-Z0-9]{2,}$/.test(s),
    'must be an Enterprise Grid id such as E0123ABCD',
  ),
  REDIS_URL: z
    .string()
    .default('redis://127.0.0.1:6379')
    .refine((s) => /^rediss?:\/\//.test(s), 'must be a redis:// or rediss:// URL'),
  REDIS_PREFIX: z
    .string()
    .default('rampart')
    .refine((s) => /^[A-Za-z0-9:_{}-]+$/.test(s), 'may hold only letters, digits and : _ - { }'),
  REDIS_CLUSTER_NODES: z.string().default('').transform(parseClusterNodes),
  // How long WAIT 1 waits for a replica after an execution's start.
  REDIS_WAIT_MS: z
    .string()
    .default('500')
    .refine(
      (s) => /^\d+$/.test(s.trim()) && Number(s) >= 1 && Number(s) <= 10_000,
      'must be a whole number of milliseconds from 1 to 10000, such as 500',
    )
    .transform((s) => Number(s.trim())),
  SERVICE_BASE_URL: httpUrl('https://wallet.example.com'),
  SERVICE_API_KEY: optionalText,
  SERVICE_BEARER_TOKEN: optionalText,
  SERVICE_CONNECT_TIMEOUT: duration('5s'),
  SERVICE_RESPONSE_TIMEOUT: duration('20s'),
  SERVICE_READ_TIMEOUT: duration('8s'),
  // Defaults declared once, with the operation table.
  SERVICE_PARAM_WALLET: z.string().default(DEFAULT_QUERY_PARAMS.wallet),
  SERVICE_PARAM_BALANCES: z.string().default(DEFAULT_QUERY_PARAMS.balances),
  SERVICE_PARAM_IDENTITY: z.string().default(DEFAULT_QUERY_PARAMS.identity),
  SERVICE_PARAM_RATE: z.string().default(DEFAULT_QUERY_PARAMS.rate),
  WALLETS: optionalText,
  APPROVALS_CHANNEL: optionalText.refine(
    (s) => s === undefined || /^[CG][A-Z0-9]{2,}$/.test(s),
    'must be a channel id such as C0123ABCD (not a #name)',
  ),
  APPROVERS: optionalText,
  APPROVER_CACHE_TTL: duration('60s'),
  APPROVALS_REQUIRED: z.coerce.number().int().min(1).max(5).default(1),
  TWO_APPROVALS_ABOVE: z.string().default('').transform(parseThresholds),
  REQUEST_EXPIRY: duration('24h'),
  SANDBOX_PORT: port(4010),
  AUDIT_WEBHOOK_URL: httpUrl('https://audit.example.com/rampart'),
  AUDIT_WEBHOOK_SECRET: optionalText.refine(
    (s) => s === undefined || s.length >= 16,
    'must be at least 16 characters (it signs every audit event)',
  ),
  // Caps the approval DMs one person's requests can fan out.
  MAX_OPEN_PER_REQUESTER: z.coerce
    .number({ error: 'must be a whole number such as 20' })
    .int('must be a whole number such as 20')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(20),
  // Passkey step-up (docs/step-up.md).
  STEP_UP_ABOVE: z.string().default('').transform(parseThresholds),
  STEP_UP_NEW_DESTINATION: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  // A cancel window after approval and payments set for a time (docs/time.md).
  DELAY: duration('1h'),
  DELAY_ABOVE: z.string().default('').transform(parseThresholds),
  DELAY_NEW_DESTINATION: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  DELAY_ENTIRE_BALANCE: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  SCHEDULE_ZONE: z
    .string()
    .default('UTC')
    .refine(isTimeZone, 'must be a time zone name such as UTC, Europe/London or Africa/Lagos'),
  // 400 days: a year of monthly runs (the last about 11 months after the first) with a month
  // to spare for a series approved late or starting next month (docs/configuration.md).
  SCHEDULE_MAX_AHEAD: duration('400d'),
  PUBLIC_URL: optionalText.pipe(z.url('must be a URL such as https://rampart.example.com').optional()),
  PASSKEY_RP_ID: optionalText,
  PASSKEY_COOLDOWN: duration('24h'),
  // The address book (docs/destinations.md).
  ADDRESS_COOLDOWN: duration('24h'),
  DESTINATIONS: z.enum(['open', 'warn', 'book'], { error: 'must be open, warn or book' }).optional(),
  // The proxy in front of the pages, so attempts can be limited per client address.
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    )
    .refine(
      (list) => list.every((p) => [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((t) => t.safeParse(p).success)),
      'must be addresses or CIDR ranges separated by commas, such as 10.0.0.5 or 10.0.0.0/8,fd00::/8',
    ),
  // Balance history, the weekly report and who sees treasury figures on App Home.
  SNAPSHOT_EVERY: duration('15m'),
  REPORT_CHANNEL: optionalText.refine(
    (s) => s === undefined || /^[CG][A-Z0-9]{2,}$/.test(s),
    'must be a channel id such as C0123ABCD (not a #name)',
  ),
  REPORT_AT: optionalText,
  VIEWERS: optionalText,
  // Recurring payouts (docs/time.md): how often and how many runs a series may have.
  SCHEDULE_MIN_INTERVAL: duration('1d'),
  SCHEDULE_MAX_RUNS: z.coerce
    .number({ error: 'must be a whole number such as 60' })
    .int('must be a whole number such as 60')
    .min(2, 'must be at least 2')
    .max(1000, 'must be at most 1000')
    .default(60),
  SCHEDULE_GRACE: duration('1h'),
  SCHEDULE_NOTICE: duration('24h'),
  METRICS_TOKEN: optionalText.refine(
    (s) => s === undefined || s.length >= 16,
    'must be at least 16 characters (every caller of /metrics must send it)',
  ),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  logLevel: string;
  role: 'all' | 'web' | 'worker';
  port: number;
  slack: {
    botToken: string;
    signingSecret: string;
    appToken: string | undefined;
    apiUrl: string | undefined;
    /** Requests whose own team (and enterprise) differ are refused. */
    teamId: string | undefined;
    enterpriseId: string | undefined;
  };
  /**
   * `prefix` is what Rampart writes under; on a cluster it always carries a hash tag.
   * `clusterNodes` set: the ioredis Cluster client (REDIS_URL then gives only credentials and TLS).
   */
  redis: {
    url: string;
    prefix: string;
    clusterNodes: ClusterNode[] | undefined;
    /** WAIT 1 <waitMs> after an execution's start when Redis has replicas. */
    waitMs: number;
  };
  service: {
    /** undefined: run against the in-process sandbox (never in production). */
    baseUrl: string | undefined;
    apiKey: string;
    bearerToken: string | undefined;
    connectTimeoutMs: number;
    responseTimeoutMs: number;
    readTimeoutMs: number;
    params: { wallet: string; balances: string; identity: string; rate: string };
  };
  wallets: WalletAlias[];
  approvalsChannel: string;
  approvers: string[];
  identityCreators: string[];
  approverCacheMs: number;
  policy: { approvalsRequired: number; twoApprovalsAbove: Record<string, string> | undefined };
  requestExpiryMs: number;
  /** A person's own open Slack and CLI requests at most; more are refused at submission. */
  maxOpenPerRequester: number;
  sandboxPort: number;
  /** Bearer token every caller of GET /metrics must send, loopback included; unset: none asked. */
  metricsToken: string | undefined;
  /** Where every state change is POSTed, signed; undefined: no webhook. */
  auditWebhook: { url: string; secret: string } | undefined;
  /** Velocity limits, reminders and escalation. */
  controls: ControlsConfig;
  /** Batch payouts. */
  batch: BatchConfig;
  /** Passkey step-up. */
  stepUp: StepUpConfig;
  /** The cancel window after approval and payments set for a time. */
  time: TimeConfig;
  /** API_RATE, the pace of each API key (default 2/s burst 10); undefined: off. */
  apiRate: Rate | undefined;
  /** Balance history, reports and the App Home dashboard. */
  reports: ReportsConfig;
  /** Recurring payouts: the limits every series' schedule is held to. */
  series: SeriesConfig;
  /** Sanctions screening (docs/screening.md). */
  screening: ScreeningConfig;
  /** The address book (docs/destinations.md). */
  destinations: DestinationsConfig;
}

export interface DestinationsConfig {
  /** DESTINATIONS; undefined: open until the card of `rampart addresses import --from-paid` is approved, then warn. */
  mode: 'open' | 'warn' | 'book' | undefined;
  /** ADDRESS_COOLDOWN: an approved entry is usable this long after its approval (default 24h). */
  cooldownMs: number;
}

export interface SeriesConfig {
  /** SCHEDULE_MIN_INTERVAL: the shortest gap between two runs of a series (default 1 day). */
  minIntervalMs: number;
  /** SCHEDULE_MAX_RUNS: the most runs one series may have (default 60). */
  maxRuns: number;
  /**
   * SCHEDULE_GRACE: how late a run may still be created (after a freeze or downtime); an older
   * missed run is skipped (default 1 hour).
   */
  graceMs: number;
  /** SCHEDULE_NOTICE: the notice before each run, at most half the gap to it (default 24 hours). */
  noticeMs: number;
}

export interface TimeConfig {
  /** DELAY: the cancel window after the quorum, for the approvals the settings below pick. */
  delayMs: number;
  /** DELAY_ABOVE: as STEP_UP_ABOVE (a batch compares its total); undefined: no amount picks it. */
  above: Record<string, string> | undefined;
  /** DELAY_NEW_DESTINATION=on: a destination Rampart never paid gets the window. */
  newDestination: boolean;
  /** DELAY_ENTIRE_BALANCE=on: an "entire balance" request gets the window. */
  entireBalance: boolean;
  /** SCHEDULE_ZONE: the zone a form's When is read in (an IANA name). */
  zone: string;
  /** SCHEDULE_MAX_AHEAD: how far ahead a payment may be set. */
  maxAheadMs: number;
}

export interface ReportsConfig {
  /** SNAPSHOT_EVERY: one balance snapshot per wallet per period (default 15 minutes). */
  snapshotEveryMs: number;
  /** REPORT_CHANNEL: where `/report … post` may share and the weekly report goes. */
  channel: string | undefined;
  /** REPORT_AT: the weekly report's moment (needs REPORT_CHANNEL); undefined: no weekly report. */
  at: WeeklyAt | undefined;
  /** VIEWERS: users and user groups who see treasury figures; undefined: anyone in the workspace. */
  viewers: string[] | undefined;
}

function parseReports(
  env: Record<string, string | undefined>,
  problems: string[],
): Omit<ReportsConfig, 'snapshotEveryMs'> {
  const atText = env.REPORT_AT?.trim();
  let at: WeeklyAt | undefined;
  if (atText) {
    const parsed = parseWeeklyAt(atText);
    if (typeof parsed === 'string') problems.push(`REPORT_AT ${parsed}`);
    else at = parsed;
    if (!env.REPORT_CHANNEL?.trim())
      problems.push('REPORT_AT needs REPORT_CHANNEL, the channel the weekly report goes to');
  }
  const viewersText = env.VIEWERS?.trim();
  const viewers = viewersText
    ? viewersText
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : undefined;
  for (const v of viewers ?? [])
    if (!SLACK_USER_OR_GROUP.test(v))
      problems.push(`VIEWERS "${v}" is not a Slack user id (U…/W…) or user group id (S…)`);
  return { channel: env.REPORT_CHANNEL?.trim() || undefined, at, viewers };
}

export interface StepUpConfig {
  /** Asset code → amount above which every counted vote needs a passkey; undefined: none by amount. */
  above: Record<string, string> | undefined;
  newDestination: boolean;
  /** Where the pages are served (origin + path, no trailing slash); undefined: no pages. */
  publicUrl: string | undefined;
  rpId: string | undefined;
  cooldownMs: number;
  /** TRUST_PROXY: addresses and CIDR ranges of the proxy; empty: no per-client-address limit. */
  trustProxy: readonly string[];
}

export interface BatchConfig {
  /** BATCH_MAX_ROWS: payments one file may hold (default 1,000, at most 5,000). */
  maxRows: number;
  /** BATCH_RATE: all batch rows together, across processes (default 5/s; undefined: `off`). */
  rate: Rate | undefined;
  /** BATCH_PAUSE_AFTER_FAILURES: this many failed rows in a row pause the batch (default 10). */
  pauseAfterFailures: number;
  /** BATCH_HOLD_LIMIT: a batch not started, paused or frozen this long after its approval is cancelled (default 24h). */
  holdLimitMs: number;
  /** BATCH_REPEAT_WINDOW: how far back a payment with the same destination and amount is a repeat (default 7d). */
  repeatWindowMs: number;
}

/** A batch is checked row by row before the ack, so its size is capped. */
export const BATCH_ROWS_CEILING = 5_000;

function parseBatch(env: Record<string, string | undefined>, problems: string[]): BatchConfig {
  const rate = parseRate(env.BATCH_RATE?.trim() || '5/s');
  if (typeof rate === 'string') problems.push(`BATCH_RATE ${rate}`);
  const rateOrDefault = typeof rate === 'string' ? undefined : rate;
  // The repeats window of the card's warnings.
  const windowText = env.BATCH_REPEAT_WINDOW?.trim() || '7d';
  let repeatWindowMs = parseDuration(windowText) ?? 0;
  if (repeatWindowMs <= 0) {
    problems.push('BATCH_REPEAT_WINDOW must be a duration such as 12h, 7d or 30d (default 7d)');
    repeatWindowMs = 7 * 86_400_000;
  }
  const text = env.BATCH_MAX_ROWS?.trim() || '1000';
  const maxRows = Number(text.replace(/[,_]/g, ''));
  const failuresText = env.BATCH_PAUSE_AFTER_FAILURES?.trim() || '10';
  const pauseAfterFailures = Number(failuresText);
  if (!/^\d+$/.test(failuresText) || pauseAfterFailures < 1 || pauseAfterFailures > 10_000)
    problems.push('BATCH_PAUSE_AFTER_FAILURES must be a whole number from 1 to 10000 (default 10)');
  const holdText = env.BATCH_HOLD_LIMIT?.trim() || '24h';
  const holdLimitMs = parseDuration(holdText);
  if (holdLimitMs === undefined || holdLimitMs <= 0)
    problems.push(`BATCH_HOLD_LIMIT "${holdText}" is not a duration; write it like 30m, 24h or 2d (default 24h)`);
  const rest = { pauseAfterFailures: pauseAfterFailures || 10, holdLimitMs: holdLimitMs || 86_400_000 };
  if (!/^\d[\d,_]*$/.test(text) || !Number.isInteger(maxRows) || maxRows < 1 || maxRows > BATCH_ROWS_CEILING) {
    problems.push(`BATCH_MAX_ROWS must be a whole number from 1 to ${BATCH_ROWS_CEILING} (default 1000)`);
    return { maxRows: 1_000, rate: rateOrDefault, ...rest, repeatWindowMs };
  }
  return { maxRows, rate: rateOrDefault, ...rest, repeatWindowMs };
}

export interface ControlsConfig {
  velocity: VelocityRule[];
  /** undefined: REMINDER_AFTER=off. */
  reminderAfterMs: number | undefined;
  reminderMax: number;
  /** undefined: no escalation. */
  escalateAfterMs: number | undefined;
  escalateTo: string[];
}

/** Velocity and freeze settings; every problem is pushed as one sentence naming the setting. */
function parseControls(
  env: Record<string, string | undefined>,
  wallets: WalletAlias[],
  problems: string[],
): ControlsConfig {
  const velocity = parseVelocityLimits(env.VELOCITY_LIMITS ?? '', wallets, parseDuration, problems);
  const reminderText = env.REMINDER_AFTER?.trim() || '30m';
  let reminderAfterMs: number | undefined;
  if (reminderText.toLowerCase() !== 'off') {
    reminderAfterMs = parseDuration(reminderText);
    if (reminderAfterMs === undefined || reminderAfterMs <= 0)
      problems.push('REMINDER_AFTER must be a duration such as 30m or 2h, or off');
  }
  const maxText = env.REMINDER_MAX?.trim() || '3';
  const reminderMax = Number(maxText);
  if (!/^\d+$/.test(maxText) || reminderMax < 1 || reminderMax > 20)
    problems.push('REMINDER_MAX must be a whole number from 1 to 20');
  const escalateText = env.ESCALATE_AFTER?.trim() ?? '';
  const escalateTo = (env.ESCALATE_TO ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  let escalateAfterMs: number | undefined;
  if (escalateText !== '') {
    escalateAfterMs = parseDuration(escalateText);
    if (escalateAfterMs === undefined || escalateAfterMs <= 0)
      problems.push('ESCALATE_AFTER must be a duration such as 2h or 1d');
    if (escalateTo.length === 0) problems.push('ESCALATE_TO must list who to message when ESCALATE_AFTER is set');
  } else if (escalateTo.length > 0) problems.push('ESCALATE_AFTER must be set when ESCALATE_TO is');
  for (const a of escalateTo)
    if (!SLACK_USER_OR_GROUP.test(a))
      problems.push(`ESCALATE_TO "${a}" is not a Slack user id (U…/W…) or user group id (S…)`);
  return { velocity, reminderAfterMs, reminderMax, escalateAfterMs, escalateTo };
}

// Outside production Rampart must start on a fresh machine with nothing set: these are the
// values of the local workbench (README "Development").
export const DEV_DEFAULTS = {
  botToken: 'xoxb-rampart-development',
  signingSecret: 'rampart-development-signing-secret',
  apiKey: 'sandbox-service-key',
  approvalsChannel: 'C0APPROVALS',
  approvers: ['U0APPROVER1', 'U0APPROVER2'],
} as const;

export interface LoadOptions {
  /** `npm run dev`: the workbench signs its own requests, so the development secret is fine. */
  development?: boolean;
  /** The CLI and the sandbox never receive Slack requests, so they need no Slack credentials. */
  receivesSlack?: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or plain http to this machine only (a local proxy or test server). */
export function isSafeServiceUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname));
  } catch {
    return false;
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env, options: LoadOptions = {}): Config {
  const problems: string[] = [];
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.') || 'environment'} ${issue.message}`);
  }
  // Checked from the raw values too, so one run lists every problem at once.
  const has = (key: string) => (env[key]?.trim() ?? '') !== '';
  const production = env.NODE_ENV === 'production';
  if (production) {
    const needed: [string, string][] = [
      ['SERVICE_BASE_URL', 'in production (the built-in sandbox runs only outside production)'],
      ['SLACK_BOT_TOKEN', 'in production'],
      ['SLACK_SIGNING_SECRET', 'in production'],
      ['WALLETS', 'in production'],
      ['APPROVALS_CHANNEL', 'in production'],
      ['APPROVERS', 'in production'],
    ];
    for (const [key, why] of needed) if (!has(key)) problems.push(`${key} is required ${why}`);
  }
  // The development secret is in the source: anyone could sign with it. It is used only when
  // nothing real is configured, or under `npm run dev` (DESIGN invariant 8).
  const realCredentials = has('SERVICE_BASE_URL') || has('SLACK_BOT_TOKEN');
  const receivesSlack = options.receivesSlack ?? true;
  if (receivesSlack && !options.development && (realCredentials || production)) {
    // In production the list above already names them as required.
    for (const key of production ? [] : ['SLACK_SIGNING_SECRET', 'SLACK_BOT_TOKEN'])
      if (!has(key))
        problems.push(
          `${key} is required when SLACK_BOT_TOKEN or SERVICE_BASE_URL is set (the development default is public)`,
        );
    if (env.SLACK_SIGNING_SECRET?.trim() === DEV_DEFAULTS.signingSecret)
      problems.push("SLACK_SIGNING_SECRET is the public development secret; use the app's own signing secret");
  }
  const serviceUrl = env.SERVICE_BASE_URL?.trim();
  if (production && serviceUrl && URL.canParse(serviceUrl) && !isSafeServiceUrl(serviceUrl))
    problems.push('SERVICE_BASE_URL must be an https:// URL in production (plain http only to 127.0.0.1 or localhost)');
  stepUpProblems(env, production, problems);
  if (has('AUDIT_WEBHOOK_URL') && !has('AUDIT_WEBHOOK_SECRET'))
    problems.push('AUDIT_WEBHOOK_SECRET is required when AUDIT_WEBHOOK_URL is set (it signs every event)');
  if (has('SERVICE_BASE_URL') && !has('SERVICE_API_KEY'))
    problems.push('SERVICE_API_KEY is required when SERVICE_BASE_URL is set');
  if (has('SLACK_BOT_TOKEN') && !env.SLACK_BOT_TOKEN?.trim().startsWith('xoxb-'))
    problems.push('SLACK_BOT_TOKEN must be a bot token starting with xoxb-');
  const walletsText = env.WALLETS?.trim() || sandboxWalletsSetting();
  const wallets = parseWallets(walletsText, problems);
  const controls = parseControls(env, wallets, problems);
  const batch = parseBatch(env, problems);
  const apiRate = parseRate(env.API_RATE?.trim() || '2/s burst 10');
  const reports = parseReports(env, problems);
  const screening = parseScreening(env, parseDuration, problems);
  if (typeof apiRate === 'string') problems.push(`API_RATE ${apiRate}`);
  const approvers = (env.APPROVERS?.trim() || DEV_DEFAULTS.approvers.join(','))
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const identityCreators = env.IDENTITY_CREATORS?.trim()
    ? env.IDENTITY_CREATORS.split(',')
        .map((a) => a.trim())
        .filter(Boolean)
    : approvers;
  const lists: [string, string[]][] = [
    ['APPROVERS', approvers],
    ['IDENTITY_CREATORS', identityCreators],
  ];
  for (const [name, list] of lists) {
    for (const a of list) {
      if (!SLACK_USER_OR_GROUP.test(a))
        problems.push(`${name} "${a}" is not a Slack user id (U…/W…) or user group id (S…)`);
    }
  }
  // A batch's rows must be able to start after the window: the hold limit counts from runAt, but a
  // window as long as the limit would leave a batch no time at all.
  const delayMs = parseDuration(env.DELAY?.trim() || '1h');
  if (delayMs !== undefined && delayMs >= batch.holdLimitMs)
    problems.push(
      `DELAY (${env.DELAY?.trim() || '1h'}) must be shorter than BATCH_HOLD_LIMIT (${env.BATCH_HOLD_LIMIT?.trim() || '24h'}); shorten DELAY or lengthen BATCH_HOLD_LIMIT`,
    );
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    role: e.ROLE,
    port: e.PORT,
    slack: {
      botToken: e.SLACK_BOT_TOKEN ?? DEV_DEFAULTS.botToken,
      signingSecret: e.SLACK_SIGNING_SECRET ?? DEV_DEFAULTS.signingSecret,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
      teamId: e.SLACK_TEAM_ID,
      enterpriseId: e.SLACK_ENTERPRISE_ID,
    },
    redis: {
      url: e.REDIS_URL,
      prefix: e.REDIS_CLUSTER_NODES ? hashTagged(e.REDIS_PREFIX) : e.REDIS_PREFIX,
      clusterNodes: e.REDIS_CLUSTER_NODES,
      waitMs: e.REDIS_WAIT_MS,
    },
    service: {
      baseUrl: e.SERVICE_BASE_URL,
      apiKey: e.SERVICE_API_KEY ?? DEV_DEFAULTS.apiKey,
      bearerToken: e.SERVICE_BEARER_TOKEN,
      connectTimeoutMs: e.SERVICE_CONNECT_TIMEOUT,
      responseTimeoutMs: e.SERVICE_RESPONSE_TIMEOUT,
      readTimeoutMs: e.SERVICE_READ_TIMEOUT,
      params: {
        wallet: e.SERVICE_PARAM_WALLET,
        balances: e.SERVICE_PARAM_BALANCES,
        identity: e.SERVICE_PARAM_IDENTITY,
        rate: e.SERVICE_PARAM_RATE,
      },
    },
    wallets,
    approvalsChannel: e.APPROVALS_CHANNEL ?? DEV_DEFAULTS.approvalsChannel,
    approvers,
    identityCreators: [...new Set(identityCreators)],
    approverCacheMs: e.APPROVER_CACHE_TTL,
    policy: { approvalsRequired: e.APPROVALS_REQUIRED, twoApprovalsAbove: e.TWO_APPROVALS_ABOVE },
    requestExpiryMs: e.REQUEST_EXPIRY,
    maxOpenPerRequester: e.MAX_OPEN_PER_REQUESTER,
    sandboxPort: e.SANDBOX_PORT,
    metricsToken: e.METRICS_TOKEN,
    auditWebhook:
      e.AUDIT_WEBHOOK_URL && e.AUDIT_WEBHOOK_SECRET
        ? { url: e.AUDIT_WEBHOOK_URL, secret: e.AUDIT_WEBHOOK_SECRET }
        : undefined,
    controls,
    batch,
    stepUp: {
      above: e.STEP_UP_ABOVE,
      newDestination: e.STEP_UP_NEW_DESTINATION === 'on',
      publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
      rpId: e.PASSKEY_RP_ID ?? (e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : undefined),
      cooldownMs: e.PASSKEY_COOLDOWN,
      trustProxy: e.TRUST_PROXY,
    },
    time: {
      delayMs: e.DELAY,
      above: e.DELAY_ABOVE,
      newDestination: e.DELAY_NEW_DESTINATION === 'on',
      entireBalance: e.DELAY_ENTIRE_BALANCE === 'on',
      zone: e.SCHEDULE_ZONE,
      maxAheadMs: e.SCHEDULE_MAX_AHEAD,
    },
    apiRate: typeof apiRate === 'string' ? undefined : apiRate,
    reports: { snapshotEveryMs: e.SNAPSHOT_EVERY, ...reports },
    series: {
      minIntervalMs: e.SCHEDULE_MIN_INTERVAL,
      maxRuns: e.SCHEDULE_MAX_RUNS,
      graceMs: e.SCHEDULE_GRACE,
      noticeMs: e.SCHEDULE_NOTICE,
    },
    destinations: { mode: e.DESTINATIONS, cooldownMs: e.ADDRESS_COOLDOWN },
    screening,
  };
}

/** The pages must be reachable only over https (or on this machine) in production. */
function stepUpProblems(env: Record<string, string | undefined>, production: boolean, problems: string[]): void {
  const url = env.PUBLIC_URL?.trim() ?? '';
  const enabled = (env.STEP_UP_ABOVE?.trim() ?? '') !== '' || env.STEP_UP_NEW_DESTINATION?.trim() === 'on';
  if (enabled && url === '')
    problems.push(
      'PUBLIC_URL is required when STEP_UP_ABOVE or STEP_UP_NEW_DESTINATION is set (the passkey pages live there)',
    );
  if (url === '' || !URL.canParse(url)) return;
  const u = new URL(url);
  if (u.search !== '' || u.hash !== '') problems.push('PUBLIC_URL must not carry a query or a fragment');
  if (production && !isSafeServiceUrl(url))
    problems.push('PUBLIC_URL must be an https:// URL in production (plain http only to localhost or 127.0.0.1)');
  const rpId = env.PASSKEY_RP_ID?.trim();
  if (rpId && u.hostname !== rpId && !u.hostname.endsWith(`.${rpId}`))
    problems.push(`PASSKEY_RP_ID "${rpId}" must be PUBLIC_URL's host or a domain it belongs to`);
}

/** Every configured secret, for masking text from outside (the service's echoes). */
export const secretsOf = (c: Config): string[] =>
  [
    c.service.apiKey,
    c.service.bearerToken,
    c.slack.botToken,
    c.slack.signingSecret,
    c.slack.appToken,
    c.metricsToken,
    c.auditWebhook?.secret,
    redisPassword(c.redis.url),
    // Credentials written into a URL are secrets too.
    ...urlCredentials(c.service.baseUrl),
    ...urlCredentials(c.auditWebhook?.url),
    ...urlCredentials(c.slack.apiUrl),
  ].filter((v): v is string => v !== undefined && v !== '');

/** The password in a redis:// or rediss:// URL, if any. */
function redisPassword(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
