import { expect, it } from 'vitest';
import { executeOne } from '../../src/app/execute-one.js';
import type { NewRequest } from '../../src/app/post-request.js';
import type { RecheckPorts } from '../../src/app/series/recheck.js';
import { runDue, type SeriesRunDeps } from '../../src/app/series/run-due.js';
import type { ApiKey } from '../../src/domain/api-key.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { readPlainList } from '../../src/domain/screening-list.js';
import type { SeriesStore } from '../../src/store/series.js';
import { RECEIVER_EVM } from '../support/factories.js';
import { APPROVERS, MINUTE, REQUESTER, sealSeries, T0, transfer, useSeriesWorld, type World } from './support.js';

let w: World;
let deps: SeriesRunDeps;
const clock = useSeriesWorld('series-runs', (world, seriesDeps) => {
  w = world;
  deps = seriesDeps;
});

/** A series of three runs a minute apart, approved by one approver: live. */
const liveSeries = (amount: number, display: Partial<NewRequest['display']> = {}, first = T0) =>
  sealSeries(w, amount, { first, display });

/** Runs every run the due call queued, as the execute job would. */
async function executeQueued(): Promise<void> {
  for (const t of w.tries.splice(0)) await executeOne(w.exec(), t.id);
}

it('makes exactly one POST per run, in order, however many workers ask at once; a skipped run makes none', async () => {
  const id = await liveSeries(3.01);
  clock.at = T0 - 1;
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: T0 });
  clock.at = T0;
  const [a, b] = await Promise.all([runDue(deps, id), runDue(deps, id)]);
  expect([a.outcome, b.outcome].sort()).toEqual(['created', 'exists']);
  // The job wakes next for run 2's notice, half the minute between runs before it.
  expect(a).toMatchObject({ k: 1, nextAt: T0 + MINUTE / 2 });
  await executeQueued();
  expect(w.received(3.01)).toBe(1);
  // An approver skips run 2 before its time: it is never created.
  expect(await deps.series.skipRun(id, 2, { by: APPROVERS[1] as string })).toEqual({ outcome: 'skipped' });
  clock.at = T0 + MINUTE;
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: T0 + 1.5 * MINUTE });
  clock.at = T0 + 2 * MINUTE;
  expect(await runDue(deps, id)).toMatchObject({ k: 3, outcome: 'created', nextAt: undefined });
  // Its last run created, the series ends (the run itself goes on) and leaves the open set.
  expect((await w.store.get(id))?.approvalState as string).toBe('ended');
  expect(await w.store.openIds()).not.toContain(id);
  await executeQueued();
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: undefined });
  expect(w.received(3.01)).toBe(2);
  expect((await deps.series.runs(id)).map((m) => m.status)).toEqual(['created', 'skipped', 'created']);
});

it('skips a run and pauses the series when TWO_APPROVALS_ABOVE was lowered below its total', async () => {
  const id = await liveSeries(3.02);
  clock.at = T0;
  expect(await runDue(deps, id)).toMatchObject({ k: 1, outcome: 'created' });
  await executeQueued();
  const policy = deps.config.policy;
  deps = { ...deps, config: { ...deps.config, policy: { ...policy, twoApprovalsAbove: { USDC: '5' } } } };
  try {
    clock.at = T0 + MINUTE;
    const told = w.notified.length;
    expect(await runDue(deps, id)).toMatchObject({
      k: 2,
      outcome: 'paused_now',
      code: 'more_approvals',
      why: 'needs a fresh approval: TWO_APPROVALS_ABOVE is now 5 USDC',
    });
    // The series' thread says why the run was skipped (never silently).
    expect(w.notified.slice(told)).toContainEqual(expect.objectContaining({ requestId: id, kind: 'run-skipped' }));
    clock.at = T0 + 2 * MINUTE;
    expect(await runDue(deps, id)).toMatchObject({ k: 3, outcome: 'paused' });
    expect(w.tries).toEqual([]);
    expect(w.received(3.02)).toBe(1);
  } finally {
    deps = { ...deps, config: { ...deps.config, policy } };
  }
});

it('ends after its last run when an approver skipped that run, and a series paused on it does not end', async () => {
  const id = await liveSeries(3.03);
  for (const k of [1, 2]) {
    clock.at = T0 + (k - 1) * MINUTE;
    expect(await runDue(deps, id)).toMatchObject({ k, outcome: 'created' });
  }
  await executeQueued();
  expect((await w.store.get(id))?.approvalState as string).toBe('live');
  expect(await deps.series.skipRun(id, 3, { by: APPROVERS[1] as string })).toEqual({ outcome: 'skipped' });
  clock.at = T0 + 2 * MINUTE;
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: undefined });
  expect((await w.store.get(id))?.approvalState as string).toBe('ended');
  expect(await w.store.openIds()).not.toContain(id);
  expect(w.received(3.03)).toBe(2);
  // Paused on its last run (today's rules refused it): it stays live, waiting for a fresh approval.
  const paused = await liveSeries(3.04);
  const policy = deps.config.policy;
  try {
    deps = { ...deps, config: { ...deps.config, policy: { ...policy, twoApprovalsAbove: { USDC: '5' } } } };
    clock.at = T0 + 2 * MINUTE;
    expect(await deps.series.skipRun(paused, 1, { by: APPROVERS[1] as string })).toEqual({ outcome: 'skipped' });
    expect(await deps.series.skipRun(paused, 2, { by: APPROVERS[1] as string })).toEqual({ outcome: 'skipped' });
    expect(await runDue(deps, paused)).toMatchObject({ k: 3, outcome: 'paused_now' });
    expect((await w.store.get(paused))?.approvalState as string).toBe('live');
  } finally {
    deps = { ...deps, config: { ...deps.config, policy } };
  }
});

/** Runs run 1 of a fresh series under `over` (deps changed for this run only), and what it answered. */
async function firstRunUnder(id: string, over: Partial<SeriesRunDeps & RecheckPorts>) {
  clock.at = T0;
  return runDue({ ...deps, ...over }, id);
}

/** The series' history entries of skipped runs, as its thread says them. */
/** "2026-11-28 09:00 UTC": a time as a skipped run's sentence writes it, to the minute. */
const minuteUtc = (ms: number | undefined) => {
  if (ms === undefined) throw new Error('no time');
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};

const skippedSaid = async (id: string) =>
  (await w.store.history(id)).filter((e) => e.event === 'run skipped').map((e) => e.detail);

const KEY: ApiKey = {
  id: 'k0000000001',
  name: 'ops-bot',
  owner: REQUESTER,
  scopes: ['requests:create', 'schedules:create'],
  limits: { maxAmount: '5000', maxOpen: 20, allowNewDestinations: true },
  createdAt: T0 - 86_400_000,
  expiresAt: undefined,
  revokedAt: undefined,
  lastUsedAt: undefined,
};
const viaKey = { viaApi: { keyId: KEY.id, keyName: KEY.name, owner: REQUESTER } };
const keyPort = (key: ApiKey | undefined) => ({
  apiKeys: { get: async (id: string) => (key && id === key.id ? { key, tokenHash: 'x' } : undefined) },
});

it("skips a run and pauses the series when its API key's --max-amount is now below the series' total", async () => {
  const id = await liveSeries(3.03, viaKey);
  expect(await firstRunUnder(id, keyPort(KEY))).toMatchObject({ k: 1, outcome: 'created' });
  w.tries.splice(0);
  clock.at = T0 + MINUTE;
  const low = keyPort({ ...KEY, limits: { ...KEY.limits, maxAmount: '5' } });
  expect(await runDue({ ...deps, ...low }, id)).toMatchObject({ k: 2, outcome: 'paused_now', code: 'key_limit' });
  expect(await skippedSaid(id)).toEqual(["run 2: needs a fresh approval: API key ops-bot's --max-amount is now 5"]);
  expect(w.tries).toEqual([]);
});

/** A change since approval that pauses the series at its next run, and what the thread says of it. */
interface Pause {
  when: string;
  amount: number;
  display: Partial<NewRequest['display']>;
  ports: Partial<SeriesRunDeps & RecheckPorts>;
  code: string;
  said: string;
}

it.each<Pause>([
  {
    when: 'its API key was revoked',
    amount: 3.04,
    display: viaKey,
    ports: keyPort({ ...KEY, revokedAt: T0 - 1 }),
    code: 'key_limit',
    said: 'API key ops-bot was revoked',
  },
  {
    when: 'its requester is no longer an active member',
    amount: 3.05,
    display: {},
    ports: { people: { isActive: async (user: string) => user !== REQUESTER } },
    code: 'requester_not_eligible',
    said: `its requester <@${REQUESTER}> is no longer an active member of the workspace`,
  },
  {
    when: 'no one who approved it is still an approver',
    amount: 3.09,
    display: {},
    ports: { approvers: { isApprover: async () => false } },
    code: 'no_approver_eligible',
    said: 'no one who approved it is still an approver',
  },
])('skips a run and pauses the series when $when', async ({ amount, display, ports, code, said }) => {
  const id = await liveSeries(amount, display);
  expect(await firstRunUnder(id, ports)).toMatchObject({ k: 1, outcome: 'paused_now', code });
  expect(await skippedSaid(id)).toEqual([`run 1: needs a fresh approval: ${said}`]);
  expect(w.tries).toEqual([]);
});

/** A plain sanctions list of 2026-11-27 holding `listed`, loaded as `rampart screening load` would. */
async function loadList(listed: readonly string[]): Promise<void> {
  const read = readPlainList(
    Buffer.from(`# name: OFAC SDN\n# published: 2026-11-27\n${listed.join('\n')}\n`),
    '2026-11-27',
  );
  if (!read.ok) throw new Error(read.problem);
  await w.store.screening.load(read.list, { by: 'test', source: 'test', now: Date.now(), acceptRemovals: true });
}

it('skips a run whose destination is now on the screening list, saying so, and sends nothing', async () => {
  const id = await liveSeries(3.06);
  await loadList([RECEIVER_EVM]);
  try {
    expect(await firstRunUnder(id, {})).toMatchObject({ k: 1, outcome: 'skipped' });
    expect((await deps.series.runs(id))[0]).toMatchObject({ k: 1, status: 'skipped' });
    expect((await skippedSaid(id))[0]).toMatch(/^run 1: This address is on the OFAC SDN list/);
    expect(w.tries).toEqual([]);
  } finally {
    await loadList([]);
  }
});

it('skips a run whose destination is not in the address book once DESTINATIONS=book', async () => {
  const id = await liveSeries(3.07);
  const config = { ...deps.config, destinations: { ...deps.config.destinations, mode: 'book' as const } };
  expect(await firstRunUnder(id, { config })).toMatchObject({ k: 1, outcome: 'skipped' });
  expect((await skippedSaid(id))[0]).toMatch(/^run 1: .*address book/i);
  expect(w.tries).toEqual([]);
});

it('pauses a series whose run it cannot judge as not checkable, with its own sentence, never as needing approvals', async () => {
  const id = await liveSeries(3.1);
  // A sealed call no amount rule can read (an asset Rampart does not know), as the run reads it.
  const real = deps.series;
  const series = Object.create(real) as SeriesStore;
  series.read = async (seriesId: string) => {
    const r = await real.read(seriesId);
    if (r.record?.sealed.call.kind !== 'transfer') return r;
    const call = {
      ...r.record.sealed.call,
      body: { ...r.record.sealed.call.body, asset: 'base:nothing' },
    } as unknown as ServiceCall;
    return { ...r, record: { ...r.record, sealed: { ...r.record.sealed, call } } };
  };
  expect(await firstRunUnder(id, { series })).toMatchObject({ k: 1, outcome: 'paused_now', code: 'not_checkable' });
  expect(await skippedSaid(id)).toEqual([
    "run 1: could not be checked against today's rules: Rampart cannot read one run's asset and amount from its sealed call, so nothing was sent; end this series and request it again",
  ]);
  expect((await real.read(id)).paused).toBe(true);
  expect(w.tries).toEqual([]);
});

it('skips a run to an address-book entry still cooling off, and one to a new beneficiary still cooling off, with the time', async () => {
  const HOUR = 3_600_000;
  // A transfer series to an entry added and approved just now (cooling an hour), under DESTINATIONS=book.
  const added = await w.store.book.add(
    [{ name: 'Payroll', chain: 'base', address: RECEIVER_EVM, wallets: '*' }],
    { addedBy: 'U0ADDER', approvedBy: APPROVERS[0] as string, requestId: 'R-0' },
    HOUR,
  );
  if (!added.ok) throw new Error('entry not added');
  try {
    const id = await liveSeries(3.1);
    const config = { ...deps.config, destinations: { ...deps.config.destinations, mode: 'book' as const } };
    expect(await firstRunUnder(id, { config })).toMatchObject({ k: 1, outcome: 'skipped' });
    const entry = await w.store.book.get(added.ids[0] ?? '');
    expect(await skippedSaid(id)).toEqual([
      `run 1: Payroll 0x99ED…EdcF is still cooling off and becomes usable ${minuteUtc(entry?.usableAt)}: this run is skipped and the later runs go on.`,
    ]);
  } finally {
    await w.store.book.remove(added.ids[0] ?? '', APPROVERS[0] as string);
  }
  // An offramp series to a beneficiary registered an hour ago, usable in an hour.
  const now = Date.now();
  await w.redis.hset(
    `${w.store.keys.prefix}:beneficiaries:cooling`,
    'ben_cooling',
    JSON.stringify({ approvedAt: now - HOUR, usableAt: now + HOUR }),
  );
  const offramp: ServiceCall = {
    kind: 'offramp',
    body: { wallet_id: 'wal_ops_7f3a', amount: 3.11, beneficiary_id: 'ben_cooling', asset: 'base:usdc' },
  };
  const id = await sealSeries(w, 3.11, { first: T0, call: offramp, display: { beneficiaryLabel: 'Ada (new)' } });
  expect(await firstRunUnder(id, {})).toMatchObject({ k: 1, outcome: 'skipped' });
  expect(await skippedSaid(id)).toEqual([
    `run 1: Ada (new) is a new beneficiary that is still cooling off and becomes usable ${minuteUtc(now + HOUR)}: this run is skipped and the later runs go on.`,
  ]);
  expect(w.tries).toEqual([]);
});

// Last: the approved payment it leaves unsent stays committed from the wallet.
it('skips a run the balance covers only before what approved payments not yet sent commit from it', async () => {
  const id = await liveSeries(3.08);
  const available = (await w.service.getBalances('wal_ops_7f3a')).find((b) => b.id === 'base:usdc')?.available ?? 0;
  const committed = await w.submit([transfer(Math.floor(available))]);
  expect((await w.store.castVote(committed, APPROVERS[0] as string)).state as string).toBe('approved');
  w.tries.splice(0);
  expect(await firstRunUnder(id, {})).toMatchObject({ k: 1, outcome: 'skipped' });
  // Run 1 of the key's series (above) is approved and unsent too: both are named.
  expect((await skippedSaid(id))[0]).toMatch(
    new RegExp(`committed to approved payments not yet sent \\(.*${committed}\\)`),
  );
  expect(w.tries).toEqual([]);
  expect(w.received(3.08)).toBe(0);
});
