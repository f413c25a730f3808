/**
 * What the Record outcome form shows about one outcome-unknown execution: the payment restated
 * (amount, asset, chain, wallet, full destination, who approved and when, the sealed hash) and
 * the evidence. Balances come from readings Rampart already held — the newest before the call
 * started (snapshots or App Home's cache), the one taken once it became unknown — and one read
 * now, when the form opens; none is ever taken between the start's compare-and-set and the call.
 */
import { parseExecutionId } from '../domain/approval.js';
import { type Asset, type AssetId, assetInfo, CHAINS } from '../domain/assets.js';
import type { BalanceReading } from '../domain/outcome-evidence.js';
import type { ExecutionRecord, RequestRecord, ServiceCall } from '../domain/request.js';
import type { ServiceClient } from '../service/client.js';
import type { BalanceCache } from '../store/balance-cache.js';
import type { BalanceHistory } from '../store/balance-history.js';
import { confirmNeedsPasskey } from './confirm-not-paid.js';
import { executionIdOf, findUnknown, type ResolveDeps, type ResolveOutcome } from './resolve.js';

export type FactsDeps = ResolveDeps & {
  service: Pick<ServiceClient, 'getBalances'>;
  dashboard?: { history: Pick<BalanceHistory, 'before'>; cache: Pick<BalanceCache, 'get'> } | undefined;
};

export interface OutcomeFacts {
  executionId: string;
  record: RequestRecord;
  execution: ExecutionRecord;
  call: ServiceCall;
  asset: Asset | undefined;
  chainName: string | undefined;
  walletId: string;
  amount: number | undefined;
  startedAt: number | undefined;
  unknownAt: number | undefined;
  before: BalanceReading | undefined;
  atUnknown: BalanceReading | undefined;
  now: BalanceReading | undefined;
  /** Other executions on the wallet and asset that started or ended between the readings. */
  others: string[];
  confirmNeedsPasskey: boolean;
}

const MONEY_EVENTS = new Set(['executing', 'succeeded', 'failed', 'unknown']);
const MOVING_VIEWS = ['approved', 'executing', 'succeeded', 'failed', 'unknown'] as const;

/** `withNow`: read the wallet's balances now too (after the form is open: Slack's 3 s are spent). */
export async function outcomeFacts(
  deps: FactsDeps,
  user: string,
  typed: string,
  withNow: boolean,
): Promise<{ ok: true; facts: OutcomeFacts } | { ok: false; outcome: ResolveOutcome }> {
  // `/resolve B-1003 row 2` opens the form by the row's name.
  const named = await executionIdOf(deps, typed);
  if (!named) return { ok: false, outcome: { kind: 'missing', id: typed } };
  const execId = named;
  const found = await findUnknown(deps, user, execId);
  if (!found.ok) return found;
  const { record, execution, approvalId } = found;
  const stored = await deps.store.executions.facts(execId);
  const call = stored.call ? (JSON.parse(stored.call) as ServiceCall) : record.sealed.call;
  const money = call.kind === 'transfer' || call.kind === 'offramp' ? call.body : undefined;
  const asset = money ? assetInfo(money.asset as AssetId) : undefined;
  const walletId = money?.wallet_id ?? '';
  const history = await deps.store.history(approvalId);
  const mine = (e: { execution?: string }) => (e.execution ?? `${approvalId}.1`) === execId;
  const unknownAt = history.filter((e) => e.event === 'unknown' && mine(e)).at(-1)?.at;
  const startedAt = stored.startedAt;
  let before: BalanceReading | undefined;
  if (money && startedAt !== undefined && deps.dashboard) {
    const [snap, cached] = await Promise.all([
      deps.dashboard.history.before(walletId, startedAt),
      deps.dashboard.cache.get(walletId),
    ]);
    const fromCache = cached && cached.at <= startedAt ? cached : undefined;
    before = [snap, fromCache].filter((r) => r !== undefined).sort((a, b) => b.at - a.at)[0];
  }
  let now: BalanceReading | undefined;
  if (money && withNow) {
    const at = deps.now();
    now = await deps.service
      .getBalances(walletId)
      .then((bs) => ({ at, available: Object.fromEntries(bs.map((b) => [b.id, b.available])) }))
      .catch((err: unknown) => {
        deps.log.warn({ err, executionId: execId }, 'could not read balances for the Record outcome form');
        return undefined;
      });
  }
  const until = now?.at ?? stored.reading?.at ?? deps.now();
  const others = before && money ? await overlapping(deps, execId, walletId, money.asset, before.at, until) : [];
  return {
    ok: true,
    facts: {
      executionId: execId,
      record,
      execution,
      call,
      asset,
      chainName: asset ? CHAINS[asset.chain].name : undefined,
      walletId,
      amount: money?.amount,
      startedAt,
      unknownAt,
      before,
      atUnknown: stored.reading,
      now,
      others,
      confirmNeedsPasskey: confirmNeedsPasskey(deps, record),
    },
  };
}

/** Executions of this wallet and asset, not this one, that started or ended in [since, until]. */
async function overlapping(
  deps: FactsDeps,
  execId: string,
  walletId: string,
  asset: string,
  since: number,
  until: number,
): Promise<string[]> {
  const ids = await deps.store.idsChangedBetween(MOVING_VIEWS, since, until);
  const own = parseExecutionId(execId)?.approvalId;
  const found = new Set<string>();
  for (const id of own && !ids.includes(own) ? [own, ...ids] : ids) {
    const record = await deps.store.get(id);
    const body = record?.sealed.call.body;
    if (!body || !('wallet_id' in body) || body.wallet_id !== walletId || body.asset !== asset) continue;
    for (const e of await deps.store.history(id)) {
      const which = e.execution ?? `${id}.1`;
      if (which !== execId && MONEY_EVENTS.has(e.event) && e.at >= since && e.at <= until) found.add(which);
    }
  }
  return [...found].slice(0, 10);
}
