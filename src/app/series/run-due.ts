/**
 * A live series' due run: re-checked against today's rules, then created once as an approval of
 * its own (store/lua/series-run.lua) and queued as any approved request, or skipped with the
 * reason. Answers when the next run is due, for the one delayed job a live series keeps.
 */
import { amountFromNumber } from '../../domain/amount.js';
import { assetInfo, parseAssetId } from '../../domain/assets.js';
import type { SealedRequest } from '../../domain/request.js';
import type { SeriesSubject } from '../../domain/rules/series.js';
import type { RunOutcome, SeriesStore } from '../../store/series.js';
import type { AppDeps } from '../deps.js';
import { approvalControls } from '../velocity.js';
import { fundsShort, recheck } from './recheck.js';

export type SeriesRunDeps = Pick<AppDeps, 'config' | 'store' | 'controls' | 'queues' | 'approvers' | 'now'> & {
  series: SeriesStore;
  /** The balance read before a run is created, as a fresh request's check reads it. */
  service: Pick<AppDeps['service'], 'getBalances'>;
};

export type RunDue =
  | { outcome: 'none'; nextAt: number | undefined }
  | ({ k: number; nextAt: number | undefined } & RunOutcome);

/** What the amount rules judge: one run's sealed call, times the runs. */
function subjectOf(sealed: SealedRequest, runs: number): SeriesSubject | undefined {
  const { call } = sealed;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return undefined;
  const id = parseAssetId(call.body.asset);
  if (!id) return undefined;
  const asset = assetInfo(id);
  return {
    kind: call.kind,
    wallet: sealed.display.walletAlias ?? call.body.wallet_id,
    asset: call.body.asset,
    assetCode: asset.code,
    perRun: amountFromNumber(call.body.amount, asset.decimals),
    runs,
    newDestination: sealed.display.newReceiver === true,
  };
}

export async function runDue(deps: SeriesRunDeps, seriesId: string): Promise<RunDue> {
  const record = await deps.store.get(seriesId);
  const schedule = record?.sealed.schedule;
  if (record?.shape !== 'series' || !schedule) return { outcome: 'none', nextAt: undefined };
  const marks = new Set((await deps.series.runs(seriesId)).map((m) => m.k));
  const now = deps.now();
  const k = schedule.runs.findIndex((at, i) => !marks.has(i + 1) && at <= now) + 1;
  const upcoming = schedule.runs.find((at, i) => !marks.has(i + 1) && i + 1 !== k && at > now);
  if (k === 0) return { outcome: 'none', nextAt: upcoming };
  const subject = subjectOf(record.sealed, schedule.runs.length);
  const unfunded = subject ? await fundsShort(deps, record.sealed, subject) : undefined;
  if (unfunded) return { k, nextAt: upcoming, ...(await skipUnfunded(deps, seriesId, k, unfunded)) };
  const refused = subject ? await recheck(deps, record.sealed, subject, record.votes) : 'more_approvals';
  const run: SealedRequest = { ...record.sealed, id: (await deps.store.allocate()).id, createdAt: now };
  delete run.schedule;
  delete run.timing;
  const velocity = approvalControls(deps).velocity;
  const outcome = await deps.series.createRun(seriesId, k, run, {
    ...(velocity ? { velocity } : {}),
    ...(refused ? { refused } : {}),
  });
  if (outcome.outcome === 'created') await deps.queues.enqueueApproved(outcome.id);
  return { k, nextAt: upcoming, ...outcome };
}

/** Skipped under the run's own key (never created later); the series' thread says why. */
async function skipUnfunded(deps: SeriesRunDeps, seriesId: string, k: number, why: string): Promise<RunOutcome> {
  const skipped = await deps.series.skipRun(seriesId, k, 'rampart', why);
  if (skipped.outcome === 'created') return { outcome: 'exists', id: skipped.id };
  if (skipped.outcome === 'not_live') return { outcome: 'not_live', state: skipped.state };
  if (skipped.outcome === 'skipped') await deps.queues.notify({ requestId: seriesId, kind: 'run-skipped' });
  return { outcome: 'skipped', why };
}
