/**
 * `rampart doctor` as a use case: is every piece a payment needs in place? Each check
 * is one line — what was found and, when it is wrong, the fix. Pure of Bolt and WebClient: Redis,
 * the service and Slack come in as small ports. Never puts a secret in a line.
 */

import type { Config } from '../config.js';
import { BOT_SCOPES } from '../domain/slack-scopes.js';
import { maskUrlCredentials } from '../domain/url-credentials.js';
import { plural, pluralWord } from '../domain/words.js';
import { isServiceError } from '../service/errors.js';
import type { Wallet } from '../service/schemas.js';
import { notPaidCheck } from './doctor-not-paid.js';
import { type PasskeyHolders, passkeyChecks } from './doctor-passkeys.js';
import { screeningCheck } from './doctor-screening.js';
import type { ScreeningStatus } from './screening-load.js';

export interface Check {
  ok: boolean;
  /** Worth knowing, but a payment can still run (printed with "!"). */
  warn?: boolean;
  text: string;
  fix?: string;
}

/** Redis as doctor sees it: INFO sections, and CLUSTER INFO when clustered. */
export interface RedisProbe {
  where: string;
  info(section: 'server' | 'memory' | 'persistence' | 'cluster'): Promise<string>;
  saveConfig(): Promise<string | undefined>;
  clusterInfo(): Promise<string>;
}

export interface SlackProbe {
  authTest(): Promise<{ ok: true; scopes: string[] | undefined; team: string } | { ok: false; error: string }>;
  channel(id: string): Promise<{ found: true; member: boolean; name: string } | { found: false; error: string }>;
  user(id: string): Promise<{ found: true; deleted: boolean } | { found: false; error: string }>;
  group(id: string): Promise<{ found: true; members: number } | { found: false; error: string }>;
}

export interface DoctorDeps {
  config: Config;
  redis: () => Promise<RedisProbe>;
  service: () => Promise<{
    getOnrampRate(c: 'NGN'): Promise<unknown>;
    getWallet(id: string): Promise<Wallet>;
    baseUrl: string;
  }>;
  slack: SlackProbe;
  /** Who holds a passkey that counts (absent: no passkey line). */
  passkeys?: () => Promise<PasskeyHolders>;
  /** The sanctions list's status (absent: no screening line). */
  screening?: () => Promise<ScreeningStatus>;
  /** The DESTINATIONS mode in force (absent: no address-book line). */
  destinations?: () => Promise<'open' | 'warn' | 'book'>;
}

const MODE_WORDS = {
  open: 'any valid address is paid (set DESTINATIONS, or run `rampart addresses import --from-paid` for warn)',
  warn: 'an address outside the address book is a new destination',
  book: 'only address-book entries and own wallets are paid',
} as const;

async function* destinationChecks(deps: DoctorDeps): AsyncGenerator<Check> {
  if (!deps.destinations) return;
  try {
    const mode = await deps.destinations();
    const set = deps.config.destinations?.mode !== undefined;
    yield { ok: true, text: `DESTINATIONS=${mode}${set ? '' : ' (the default)'}: ${MODE_WORDS[mode]}` };
  } catch {
    // Redis's own line above already says why it cannot be read.
  }
}

/** "key:value" lines of INFO. */
export function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0 && !line.startsWith('#')) out[line.slice(0, i)] = line.slice(i + 1).trim();
  }
  return out;
}

const sentence = (err: unknown): string =>
  maskUrlCredentials((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '');

async function* redisChecks(deps: DoctorDeps): AsyncGenerator<Check> {
  let r: RedisProbe;
  try {
    r = await deps.redis();
  } catch (err) {
    // openRedis says where and why, then its own advice after ';': the fix below replaces it.
    const why = sentence(err).split(';')[0]?.replace(/\.$/, '') ?? 'Redis does not answer';
    yield { ok: false, text: why, fix: 'start Redis or correct REDIS_URL (REDIS_CLUSTER_NODES for a cluster)' };
    return;
  }
  const server = parseInfo(await r.info('server'));
  yield { ok: true, text: `${r.where} answers (Redis ${server.redis_version ?? '?'})` };
  const policy = parseInfo(await r.info('memory')).maxmemory_policy ?? 'unknown';
  yield policy === 'noeviction'
    ? { ok: true, text: 'Redis maxmemory-policy is noeviction' }
    : {
        ok: false,
        text: `Redis maxmemory-policy is ${policy}: Redis may evict a request or a job when memory runs short`,
        fix: 'set maxmemory-policy noeviction (redis.conf, or CONFIG SET maxmemory-policy noeviction)',
      };
  const persistence = parseInfo(await r.info('persistence'));
  const save = await r.saveConfig();
  if (persistence.aof_enabled === '1') yield { ok: true, text: 'Redis persistence is on (AOF)' };
  else if (save !== undefined && save.trim() !== '')
    yield { ok: true, text: `Redis persistence is RDB snapshots only (save ${save}); AOF loses less on a crash` };
  else
    yield {
      ok: false,
      text: 'Redis keeps nothing on disk: a restart would lose every pending request and queued job',
      fix: 'set appendonly yes (docker-compose.yml does)',
    };
  if (parseInfo(await r.info('cluster')).cluster_enabled === '1') {
    const state = parseInfo(await r.clusterInfo()).cluster_state ?? 'unknown';
    yield state === 'ok'
      ? { ok: true, text: 'Redis Cluster state is ok' }
      : { ok: false, text: `Redis Cluster state is ${state}`, fix: 'repair the cluster (redis-cli --cluster check)' };
  }
}

async function* serviceChecks(deps: DoctorDeps): AsyncGenerator<Check> {
  let service: Awaited<ReturnType<DoctorDeps['service']>>;
  try {
    service = await deps.service();
  } catch (err) {
    yield { ok: false, text: `the service client could not start (${sentence(err)})`, fix: 'check SERVICE_BASE_URL' };
    return;
  }
  try {
    await service.getOnrampRate('NGN');
    yield {
      ok: true,
      text: `the service at ${maskUrlCredentials(service.baseUrl)} answers and accepts SERVICE_API_KEY (GET /rate/onramp)`,
    };
  } catch (err) {
    if (isServiceError(err) && !err.mayHaveReached)
      yield {
        ok: false,
        text: `the service at ${maskUrlCredentials(service.baseUrl)} cannot be reached`,
        fix: 'check SERVICE_BASE_URL and the network',
      };
    else if (isServiceError(err) && (err.status === 401 || err.status === 403))
      yield {
        ok: false,
        text: `the service refused SERVICE_API_KEY (HTTP ${err.status} on GET /rate/onramp)`,
        fix: 'set SERVICE_API_KEY to the key the service issued for Rampart',
      };
    else
      yield {
        ok: false,
        text: `GET /rate/onramp failed: ${sentence(err)}`,
        fix: 'check the service and SERVICE_BASE_URL',
      };
    return; // the wallets cannot be checked either
  }
  for (const w of deps.config.wallets) {
    try {
      const wallet = await service.getWallet(w.id);
      yield wallet.is_active
        ? { ok: true, text: `wallet ${w.alias} (${w.id}) found and active` }
        : {
            ok: false,
            text: `wallet ${w.alias} (${w.id}) is inactive at the service`,
            fix: 'activate it or remove it from WALLETS',
          };
    } catch (err) {
      yield isServiceError(err) && err.status === 404
        ? { ok: false, text: `wallet ${w.alias}: the service has no wallet ${w.id}`, fix: 'correct WALLETS' }
        : {
            ok: false,
            text: `wallet ${w.alias} (${w.id}) could not be read: ${sentence(err)}`,
            fix: 'check the service',
          };
    }
  }
}

async function* slackChecks(deps: DoctorDeps): AsyncGenerator<Check> {
  const { config, slack } = deps;
  const auth = await slack.authTest();
  if (!auth.ok) {
    yield {
      ok: false,
      text: `Slack refused SLACK_BOT_TOKEN (${auth.error})`,
      fix: 'copy the Bot User OAuth Token (xoxb-…) again',
    };
    return;
  }
  yield { ok: true, text: `Slack accepts SLACK_BOT_TOKEN (workspace ${auth.team})` };
  const granted = new Set(auth.scopes ?? []);
  const missing = BOT_SCOPES.filter((s) => !granted.has(s));
  yield missing.length === 0
    ? { ok: true, text: `the bot has every scope manifest.yml asks for (${BOT_SCOPES.join(', ')})` }
    : {
        ok: false,
        text: `the bot lacks the ${pluralWord(missing.length, 'scope')} ${missing.join(', ')}`,
        fix: 'update the app from manifest.yml and reinstall it to the workspace',
      };
  const channel = await slack.channel(config.approvalsChannel);
  if (!channel.found)
    yield {
      ok: false,
      text: `APPROVALS_CHANNEL ${config.approvalsChannel} not found (${channel.error})`,
      fix: 'put the channel id (C…) from its details in APPROVALS_CHANNEL',
    };
  else
    yield channel.member
      ? { ok: true, text: `the bot is a member of #${channel.name} (${config.approvalsChannel})` }
      : {
          ok: false,
          text: `the bot is not a member of #${channel.name} (${config.approvalsChannel})`,
          fix: `type /invite @Rampart in #${channel.name}`,
        };
  let people = 0;
  for (const id of config.approvers) {
    if (id.startsWith('S')) {
      const g = await slack.group(id);
      if (g.found) people += g.members;
      yield g.found
        ? {
            ok: g.members > 0,
            text: `approver group ${id} has ${plural(g.members, 'member')}`,
            ...(g.members > 0 ? {} : { fix: 'add people to the group' }),
          }
        : { ok: false, text: `approver group ${id} not found (${g.error})`, fix: 'correct APPROVERS' };
    } else {
      const u = await slack.user(id);
      if (u.found && !u.deleted) people += 1;
      yield u.found && !u.deleted
        ? { ok: true, text: `approver ${id} found` }
        : {
            ok: false,
            text: `approver ${id} ${u.found ? 'is deactivated' : `not found (${u.error})`}`,
            fix: 'correct APPROVERS',
          };
    }
  }
  yield notPaidCheck(people);
}

/** Every check in order: configuration, Redis, the service, Slack. */
export async function* doctor(deps: DoctorDeps): AsyncGenerator<Check> {
  const c = deps.config;
  yield {
    ok: true,
    text: `configuration loads (${c.env}, ROLE=${c.role}, ${plural(c.wallets.length, 'wallet')}, ${plural(c.approvers.length, 'approver entry', 'approver entries')})`,
  };
  yield* redisChecks(deps);
  if (deps.passkeys) yield* passkeyChecks(c, deps.passkeys);
  yield* destinationChecks(deps);
  // A Redis that does not answer is the Redis line's ✗ above; the list is then unknown, not stale.
  if (deps.screening) {
    const status = await deps.screening().catch(() => undefined);
    if (status) yield screeningCheck(status);
  }
  yield* serviceChecks(deps);
  yield* slackChecks(deps);
}
