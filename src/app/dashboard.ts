/**
 * App Home's dashboard from stored facts: per configured wallet the balances now and a
 * 30-day chart per asset (balance history), each velocity rule's use against its limit, what
 * waits for approval (oldest first), the last ten outcomes and the freeze. "Balances now" reads
 * the service at most once per wallet per minute, whoever opens App Home (BalanceCache's turn,
 * and one read in flight per process); everyone else gets the cached or last stored reading.
 */
import { isFinal, type RequestRecord } from '../domain/request.js';
import { rulesFor, type VelocityRule, type VelocityUsage } from '../domain/velocity.js';
import type { WalletAlias } from '../domain/wallets.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { BalanceCache, CachedBalances } from '../store/balance-cache.js';
import type { BalanceHistory, Snapshot } from '../store/balance-history.js';
import type { ControlStore, FreezeState } from '../store/controls.js';
import type { RequestStore } from '../store/requests.js';
import { type BalanceChart, balanceCharts } from './dashboard-charts.js';

const DAY = 86_400_000;

export interface DashboardDeps {
  service: Pick<ServiceClient, 'getBalances'>;
  store: Pick<RequestStore, 'openIds' | 'recentIds' | 'get'>;
  controls: Pick<ControlStore, 'usage' | 'freeze'>;
  history: Pick<BalanceHistory, 'since' | 'latest'>;
  cache: BalanceCache;
  wallets: readonly WalletAlias[];
  rules: readonly VelocityRule[];
  zone: string;
  now: () => number;
  log: Logger;
}

export interface WalletPanel {
  alias: string;
  /** undefined: never read yet (no snapshot, no cached read). */
  balances: CachedBalances | undefined;
  charts: BalanceChart[];
}

export interface Dashboard {
  wallets: WalletPanel[];
  limits: (VelocityUsage & { walletAlias: string })[];
  /** Pending requests, oldest first. */
  waiting: RequestRecord[];
  /** The last ten final requests, newest first. */
  outcomes: RequestRecord[];
  freeze: FreezeState | undefined;
}

const inFlight = new WeakMap<BalanceCache, Map<string, Promise<CachedBalances | undefined>>>();
const historyCache = new WeakMap<BalanceCache, Map<string, { at: number; snapshots: Snapshot[] }>>();

async function readNow(deps: DashboardDeps, w: WalletAlias): Promise<CachedBalances | undefined> {
  if (await deps.cache.takeTurn(w.id)) {
    try {
      const balances = await deps.service.getBalances(w.id);
      const value = { at: deps.now(), available: Object.fromEntries(balances.map((b) => [b.id, b.available])) };
      await deps.cache.put(w.id, value);
      return value;
    } catch (err) {
      deps.log.warn({ err, wallet: w.alias }, 'App Home could not read balances; showing the last stored ones');
    }
  }
  return (await deps.cache.get(w.id)) ?? (await deps.history.latest(w.id));
}

async function balancesNow(deps: DashboardDeps, w: WalletAlias): Promise<CachedBalances | undefined> {
  const cached = await deps.cache.get(w.id);
  if (cached && deps.now() - cached.at < deps.cache.everyMs) return cached;
  let flights = inFlight.get(deps.cache);
  if (!flights) {
    flights = new Map();
    inFlight.set(deps.cache, flights);
  }
  let flight = flights.get(w.id);
  if (!flight) {
    const map = flights;
    flight = readNow(deps, w).finally(() => map.delete(w.id));
    flights.set(w.id, flight);
  }
  return flight;
}

/**
 * The 30-day history changes with each snapshot at most: read once a minute per process. The
 * charts end at the balance shown as "now" (read after the last snapshot), so the chart's last
 * point and "Balances now" agree.
 */
async function chartsOf(deps: DashboardDeps, w: WalletAlias, now: CachedBalances | undefined): Promise<BalanceChart[]> {
  let cache = historyCache.get(deps.cache);
  if (!cache) {
    cache = new Map();
    historyCache.set(deps.cache, cache);
  }
  let hit = cache.get(w.id);
  if (!hit || deps.now() - hit.at >= deps.cache.everyMs) {
    hit = { at: deps.now(), snapshots: await deps.history.since(w.id, deps.now() - 30 * DAY) };
    cache.set(w.id, hit);
  }
  const last = hit.snapshots.at(-1);
  const snapshots =
    now && (!last || now.at > last.at)
      ? [...hit.snapshots, { at: now.at, gap: false as const, available: now.available }]
      : hit.snapshots;
  return balanceCharts(w.alias, snapshots, deps.zone);
}

async function limitsOf(deps: DashboardDeps): Promise<Dashboard['limits']> {
  const codes = [...new Set(deps.rules.map((r) => r.code))];
  const rows = await Promise.all(
    deps.wallets.flatMap((w) =>
      codes.map(async (code) => {
        const rules = rulesFor(deps.rules, w.alias, code);
        const usage = await deps.controls.usage(
          { walletId: w.id, walletAlias: w.alias, code, decimals: rules[0]?.decimals ?? 0, units: 0n },
          rules,
          deps.now(),
        );
        return usage.map((u) => ({ ...u, walletAlias: w.alias }));
      }),
    ),
  );
  return rows.flat();
}

async function records(deps: DashboardDeps, ids: string[]): Promise<RequestRecord[]> {
  return (await Promise.all(ids.map((id) => deps.store.get(id)))).filter((r): r is RequestRecord => r !== undefined);
}

export async function buildDashboard(deps: DashboardDeps): Promise<Dashboard> {
  const [panels, limits, open, recent, freeze] = await Promise.all([
    Promise.all(
      deps.wallets.map(async (w) => {
        const balances = await balancesNow(deps, w);
        return { alias: w.alias, balances, charts: await chartsOf(deps, w, balances) };
      }),
    ),
    limitsOf(deps),
    deps.store.openIds().then((ids) => records(deps, ids)),
    deps.store.recentIds(40).then((ids) => records(deps, ids)),
    deps.controls.freeze(),
  ]);
  return {
    // App Home draws one wallet's charts at a time (blocks/home-dashboard.ts caps how many).
    wallets: panels,
    limits,
    waiting: open.filter((r) => r.state === 'pending').sort((a, b) => a.sealed.createdAt - b.sealed.createdAt),
    outcomes: recent
      .filter((r) => isFinal(r.state))
      .sort((a, b) => (b.decidedAt ?? b.sealed.createdAt) - (a.decidedAt ?? a.sealed.createdAt))
      .slice(0, 10),
    freeze,
  };
}
