/**
 * A series' runs in Redis: each run created once as an approval of its own under its run key
 * `S-n:k` (store/lua/series-run.lua), and an approver's skip claiming that same key
 * (series-skip.lua), so the two can never both win. The series record itself is created and
 * voted as any approval (create.lua and vote.lua, shape `series`).
 */
import { executionId } from '../domain/approval.js';
import type { HistoryEntry, RequestRecord, SealedRequest } from '../domain/request.js';
import type { RunPauseCode, RunRefusal } from '../domain/rules/series.js';
import { decodeRunMark, isSeriesId, type RunMark, runKey, type SkipBy, skipMarkOf } from '../domain/series.js';
import { luaScript } from './lua-scripts.js';
import { recordOf } from './record-view.js';
import type { RedisClient } from './redis.js';
import { readReplies } from './redis-errors.js';
import { FIRST_ID, type VoteControls } from './requests.js';
import { evalScript } from './run-script.js';
import { encodeSealed } from './sealed-field.js';
import type { StoreKeys } from './store-keys.js';
import { ruleArgs } from './velocity-lua.js';

const RUN = luaScript('series-run');
const SKIP = luaScript('series-skip');
const END = luaScript('series-end');
const NOTICE = luaScript('series-notice');
const HOLD = luaScript('series-hold');
const LAST_RUN = luaScript('series-last-run');
/** A run whose id another worker took in the meantime asks again with the next; this many times. */
const RUN_TRIES = 3;
/** A run created between the read and the end makes the end ask again; this many times at most. */
const END_TRIES = 5;

export type RunOutcome =
  | { outcome: 'created' | 'exists'; id: string }
  | { outcome: 'skipped'; why: string }
  | { outcome: 'not_live'; state: string }
  | { outcome: 'paused' }
  /** Not created: Rampart is frozen; the series waits for the unfreeze to wake it. */
  | { outcome: 'frozen' }
  | { outcome: 'over_limit'; limitIndex: number; used: bigint }
  /** Refused (today's rules, or it could not be judged): skipped, and the series paused. */
  | { outcome: 'paused_now'; code: RunPauseCode; why: string };

export type SkipOutcome =
  | { outcome: 'skipped' | 'already_skipped' }
  | { outcome: 'created'; id: string }
  | { outcome: 'not_live'; state: string };

export type EndOutcome =
  /** Ended; its last run (if any) was cancelled unsent, had started, or there was none. */
  | { outcome: 'ended'; run: { id: string; was: 'cancelled' | 'started' } | undefined }
  | { outcome: 'not_live'; state: string };

/** What a run's creation is told beside its sealed request. */
export interface RunChecks {
  velocity?: VoteControls['velocity'];
  /**
   * What refuses the run (today's rules, runRecheckRule; or it could not be judged): the run is
   * skipped with its sentence and the series paused.
   */
  refused?: RunRefusal;
  /** The run's sealed time: it never starts before it, whatever the creating worker's clock. */
  at?: number;
}

/** What a series' job reads, in one round trip: the record, its runs' marks and the freeze. */
export interface SeriesRead {
  record: RequestRecord | undefined;
  marks: Map<number, RunMark>;
  /** Whether Rampart is frozen now. */
  frozen: boolean;
  /** Today's rules refused a run: no run is created until a fresh approval. */
  paused: boolean;
  /** The highest run a freeze held (0: none): an older missed run was due while frozen. */
  held: number;
  /** The id the next run takes, when the series has one ready (series-run.lua keeps it). */
  nextId: string | undefined;
  /** When it ended (series-end.lua, series-last-run.lua), if it did. */
  endedAt: number | undefined;
}

/** The run marks a series' hash holds (`run:k` fields), read leniently (domain/series.ts decodeRunMark). */
function marksOf(h: Record<string, string>): RunMark[] {
  return Object.entries(h).flatMap(([f, v]) => (f.startsWith('run:') ? (decodeRunMark(v) ?? []) : []));
}

export class SeriesStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly now: () => number = Date.now,
  ) {}

  /** The Redis key run k's creation and its skip both claim. */
  private runClaim = (seriesId: string, k: number) => `${this.keys.prefix}:series-run:${runKey(seriesId, k)}`;

  /**
   * Creates run k as approval `run.id` (the series' `nextId`, or an id the caller allocated; a
   * losing worker's id stays unused), approved, with the series' votes and sealed call, its
   * velocity reserved in the same step. `run` is the series' sealed request under the run's id.
   * `refused`: what today's rules refuse (runRecheckRule: its code, kept on the series, and the
   * sentence its thread says), so the run is skipped and the series paused under the same claim.
   * An id another run took meanwhile is replaced by the series' next one (series-run.lua answers
   * it), so this is one round trip but for that race.
   */
  async createRun(seriesId: string, k: number, run: SealedRequest, checks: RunChecks = {}): Promise<RunOutcome> {
    let sealed = run;
    for (let i = 0; i < RUN_TRIES; i += 1) {
      const [outcome, a, b] = await this.runScript(seriesId, k, sealed, checks);
      switch (outcome) {
        case 'retry':
          sealed = { ...run, id: a || (await this.allocate()) };
          continue;
        case 'created':
        case 'exists':
          return { outcome, id: a ?? '' };
        case 'skipped':
          return { outcome, why: a ?? '' };
        case 'paused_now':
          return { outcome, code: a as RunPauseCode, why: b ?? '' };
        case 'not_live':
          return { outcome, state: a ?? '' };
        case 'paused':
        case 'frozen':
          return { outcome };
        case 'over_limit':
          return { outcome, limitIndex: Number(a), used: BigInt(b ?? '0') };
        default:
          throw new Error(`series-run answered ${outcome}`);
      }
    }
    throw new Error(`run ${k} of ${seriesId}: every id tried was taken`);
  }

  private async runScript(
    seriesId: string,
    k: number,
    run: SealedRequest,
    checks: RunChecks,
  ): Promise<[string, string?, string?]> {
    const { velocity, at: due, refused } = checks;
    const at = this.now();
    const created: HistoryEntry = { at, event: 'approved', detail: `run ${k} of ${seriesId}` };
    const onSeries: HistoryEntry = { at, event: 'run', detail: `run ${k}: ${run.id}` };
    const why = refused ? refused.why : 'over a velocity limit';
    const skipped: HistoryEntry = { at, event: 'run skipped', detail: `run ${k}: ${why}` };
    const args = [
      String(k),
      run.id,
      encodeSealed(run),
      ...[created, onSeries, skipped].map((e) => JSON.stringify(e)),
      refused?.code ?? '',
      'R-',
      String(FIRST_ID),
      seriesId,
      due === undefined ? '' : String(due),
      why,
    ];
    if (velocity) args.push(velocity.ledgerPrefix, String(velocity.retentionMs), '', ...ruleArgs(velocity.rules));
    return (await evalScript(
      this.redis,
      RUN,
      14,
      this.keys.approval(seriesId),
      this.keys.history(seriesId),
      this.keys.approval(run.id),
      this.keys.history(run.id),
      this.keys.execution(executionId(run.id, 1)),
      this.keys.ready,
      this.keys.state('approved'),
      this.keys.recent,
      this.keys.open,
      this.runClaim(seriesId, k),
      this.keys.freeze,
      this.keys.seriesHeld,
      this.keys.seq,
      this.keys.series,
      ...args,
    )) as [string, string?, string?];
  }

  /** A fresh run id from the approvals' sequence (only when the series has none ready). */
  async allocate(): Promise<string> {
    return `R-${FIRST_ID + (await this.redis.incr(this.keys.seq))}`;
  }

  /**
   * The series, its runs' marks and the freeze flag, in one round trip (a series has no
   * execution of its own, so its execution 1 is not read).
   */
  async read(seriesId: string): Promise<SeriesRead> {
    const [h, freeze] = (await readReplies(
      this.redis.pipeline().hgetall(this.keys.approval(seriesId)).exists(this.keys.freeze).exec(),
    )) as [Record<string, string>, number];
    const marks = new Map<number, RunMark>();
    for (const mark of marksOf(h)) marks.set(mark.k, mark);
    return {
      record: recordOf(seriesId, h, {}),
      marks,
      frozen: freeze === 1,
      paused: h.paused === '1',
      held: Number(h.held ?? '0'),
      nextId: h.nextId || undefined,
      endedAt: h.endedAt ? Number(h.endedAt) : undefined,
    };
  }

  /** Holds run k while frozen (true), or answers false when the freeze was lifted meanwhile. */
  async hold(seriesId: string, k: number): Promise<boolean> {
    const held = await evalScript(
      this.redis,
      HOLD,
      3,
      this.keys.approval(seriesId),
      this.keys.freeze,
      this.keys.seriesHeld,
      String(k),
      seriesId,
    );
    return held === 1;
  }

  /**
   * Claims the notice before run k (true once, whatever the number of workers and retries), and
   * readies the id that run will take when the series has none, so creating it allocates nothing.
   */
  async claimNotice(seriesId: string, k: number): Promise<boolean> {
    const claimed = await evalScript(
      this.redis,
      NOTICE,
      2,
      this.keys.approval(seriesId),
      this.keys.seq,
      String(k),
      'R-',
      String(FIRST_ID),
    );
    return claimed === 1;
  }

  /**
   * Skips run k: by an approver (who, and by which door), or by Rampart with the reason (the
   * wallet could not cover it). Recorded on the series (its SkipMark) and in its history.
   */
  async skipRun(seriesId: string, k: number, skip: SkipBy): Promise<SkipOutcome> {
    const mark = skipMarkOf(k, skip);
    const by = 'by' in skip ? skip.by : 'rampart';
    const entry: HistoryEntry = { at: this.now(), event: 'run skipped', by, detail: `run ${k}: ${mark.why}` };
    const [outcome, a] = (await evalScript(
      this.redis,
      SKIP,
      3,
      this.keys.approval(seriesId),
      this.keys.history(seriesId),
      this.runClaim(seriesId, k),
      String(k),
      JSON.stringify(mark),
      JSON.stringify(entry),
    )) as [SkipOutcome['outcome'], string?];
    if (outcome === 'created') return { outcome, id: a ?? '' };
    if (outcome === 'not_live') return { outcome, state: a ?? '' };
    return { outcome };
  }

  /**
   * Ends a live series after its last run: true when every one of its `runs` is created or
   * skipped and it ended now (series-last-run.lua); false while a run is unsettled, or not live.
   */
  async endAfterLastRun(seriesId: string, runs: number): Promise<boolean> {
    const entry: HistoryEntry = { at: this.now(), event: 'ended', by: 'rampart', detail: 'after its last run' };
    const [outcome] = (await evalScript(
      this.redis,
      LAST_RUN,
      3,
      this.keys.approval(seriesId),
      this.keys.history(seriesId),
      this.keys.open,
      String(runs),
      JSON.stringify(entry),
      seriesId,
    )) as [string];
    return outcome === 'ended';
  }

  /**
   * Ends a live series (`by` its requester or an approver, checked by the caller) and cancels its
   * last run in the same step when that run is still unsent. `ledgerPrefix`: VELOCITY_LIMITS';
   * `detail`: what the series' history adds after the person ("from the CLI").
   */
  async end(seriesId: string, by: string, ledgerPrefix = '', detail?: string): Promise<EndOutcome> {
    const at = this.now();
    const onSeries: HistoryEntry = { at, event: 'ended', by, ...(detail ? { detail } : {}) };
    const onRun: HistoryEntry = { at, event: 'cancelled', by, detail: `${seriesId} ended` };
    let last = (await this.redis.hget(this.keys.approval(seriesId), 'lastRun')) ?? '';
    for (let i = 0; i < END_TRIES; i += 1) {
      const runId = last || seriesId;
      const [outcome, a, b] = (await evalScript(
        this.redis,
        END,
        16,
        this.keys.approval(seriesId),
        this.keys.history(seriesId),
        this.keys.open,
        ...this.keys.views(),
        this.keys.approval(runId),
        this.keys.history(runId),
        this.keys.execution(executionId(runId, 1)),
        this.keys.ready,
        last,
        JSON.stringify(onSeries),
        JSON.stringify(onRun),
        ledgerPrefix,
        seriesId,
      )) as [string, string, string?];
      if (outcome === 'retry') {
        last = a;
        continue;
      }
      if (outcome === 'not_live') return { outcome, state: a };
      return { outcome: 'ended', run: a && b !== 'none' ? { id: a, was: b as 'cancelled' | 'started' } : undefined };
    }
    throw new Error(`${seriesId} kept creating runs while it was being ended`);
  }

  /**
   * Every series' id, newest first (at most `limit`), from the series index create.lua writes.
   * Series created before that index are added once, from the recent index (every approval,
   * never trimmed), before the first list is read; adding is idempotent, so workers doing it at
   * once agree. One that a process without the index creates after that read joins it at its
   * quorum (vote.lua) or, already live, at its next due run (series-run.lua).
   */
  async ids(limit = Number.POSITIVE_INFINITY): Promise<string[]> {
    const stop = Number.isFinite(limit) ? Math.max(0, limit - 1) : -1;
    if (limit <= 0) return [];
    const [indexed, ids] = (await readReplies(
      this.redis.pipeline().exists(this.keys.seriesIndexed).zrevrange(this.keys.series, 0, stop).exec(),
    )) as [number, string[]];
    if (indexed === 1) return ids;
    await this.indexOlderSeries();
    return this.redis.zrevrange(this.keys.series, 0, stop);
  }

  /** Adds every series the recent index holds to the series index, then marks it done. */
  private async indexOlderSeries(): Promise<void> {
    let cursor = '0';
    do {
      const [next, page] = await this.redis.zscan(this.keys.recent, cursor, 'MATCH', 'S-*', 'COUNT', 1000);
      const members: (string | number)[] = [];
      for (let i = 0; i < page.length; i += 2) {
        const id = page[i] as string;
        if (isSeriesId(id)) members.push(Number(id.slice(2)), id);
      }
      if (members.length > 0) await this.redis.zadd(this.keys.series, ...members);
      cursor = next;
    } while (cursor !== '0');
    await this.redis.set(this.keys.seriesIndexed, '1');
  }

  /** What the series recorded of each run so far, by k. */
  async runs(seriesId: string): Promise<RunMark[]> {
    return marksOf(await this.redis.hgetall(this.keys.approval(seriesId))).sort((x, y) => x.k - y.k);
  }
}
