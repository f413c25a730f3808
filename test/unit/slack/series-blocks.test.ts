/** The series' Slack blocks: the form's repeat fields, the card's buttons, /schedules and App Home, within Slack's limits. */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits, findElement } from '../../../devkit/index.js';
import { seriesActionBlocks } from '../../../src/adapters/slack/blocks/card-series.js';
import { homeView } from '../../../src/adapters/slack/blocks/home.js';
import { REPEAT_FIELD_BLOCK } from '../../../src/adapters/slack/blocks/repeat-input.js';
import { requestModal } from '../../../src/adapters/slack/blocks/request-modal.js';
import { LIVE_LISTED, schedulesBlocks } from '../../../src/adapters/slack/blocks/schedules.js';
import { SERIES_ACTIONS } from '../../../src/adapters/slack/blocks/series-actions.js';
import type { ComingRun, SeriesView } from '../../../src/app/series/reads.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import { buildRecord } from '../../support/factories.js';

const AT = Date.parse('2026-12-01T08:00:00Z');
const view = (n: number, state: string, extra: Partial<SeriesView> = {}): SeriesView => ({
  id: `S-${n}`,
  state,
  paused: false,
  requester: 'U0REQUESTER',
  cadence: 'Monthly on the 1st at 09:00 Africa/Lagos',
  zone: 'Africa/Lagos',
  sentence: '…',
  pays: '1,200.00 USDC to 0x99ED…EdcF',
  runs: 12,
  next: state === 'live' || state === 'pending' ? [{ k: 3, at: AT }] : [],
  skipped: [{ k: 1, at: AT, status: 'skipped', why: 'skipped by U0APPROVER1', by: 'U0APPROVER1' }],
  created: [{ k: 2, at: AT, id: 'R-9' }],
  ...extra,
});

const series = (approvalState: string): RequestRecord =>
  ({ ...buildRecord('approved'), shape: 'series', approvalState }) as unknown as RequestRecord;

describe('the request form', () => {
  /** The /transfer or /offramp form, with one wallet, for someone in `zone`. */
  const form = (kind: 'transfer' | 'offramp', zone: string) =>
    requestModal({ kind, channel: 'C1' }, [{ alias: 'ops', id: 'wal_1' }], {}, undefined, zone);

  it('has the repeat fields as optional input blocks, no dispatch, within a modal’s limits', () => {
    const modal = form('transfer', 'Africa/Lagos');
    expect(checkBlockKitLimits('modal', modal)).toEqual([]);
    const ids = new Set(modal.blocks.map((b) => b.block_id));
    for (const block of Object.values(REPEAT_FIELD_BLOCK)) expect(ids.has(block)).toBe(true);
    const repeat = modal.blocks.filter((b) => b.block_id?.startsWith('repeat')) as {
      type: string;
      optional?: boolean;
      dispatch_action?: boolean;
    }[];
    expect(repeat).toHaveLength(4);
    expect(repeat.every((b) => b.type === 'input' && b.optional === true && !b.dispatch_action)).toBe(true);
    expect(JSON.stringify(modal)).toContain('"initial_value":"09:00 Africa/Lagos"');
    const offramp = form('offramp', 'UTC');
    expect(checkBlockKitLimits('modal', offramp)).toEqual([]);
    expect(offramp.blocks.filter((b) => b.block_id?.startsWith('repeat'))).toHaveLength(4);
  });
});

describe('a series’ card', () => {
  it('offers Skip next run (naming the run) and End series only while live', () => {
    const live = seriesActionBlocks(series('live'), { k: 3, at: AT });
    expect(findElement(live, SERIES_ACTIONS.skipRun)?.element.value).toBe(`${series('live').sealed.id}:3`);
    expect(findElement(live, SERIES_ACTIONS.end)?.element.value).toBe(series('live').sealed.id);
    expect(JSON.stringify(live)).toContain('2026-12-01 08:00 UTC');
    // No run left to come: End only.
    expect(findElement(seriesActionBlocks(series('live'), undefined), SERIES_ACTIONS.skipRun)).toBeUndefined();
    for (const state of ['pending', 'ended', 'denied'])
      expect(seriesActionBlocks(series(state), { k: 1, at: AT })).toEqual([]);
    expect(seriesActionBlocks(buildRecord('approved'), { k: 1, at: AT })).toEqual([]);
  });
});

describe('/schedules', () => {
  it('lists live series first with their buttons, then pending, then ended, with runs made and skipped', () => {
    const blocks = schedulesBlocks([view(3, 'live'), view(4, 'pending'), view(1, 'ended', { endedBy: 'U0APPROVER2' })]);
    const text = JSON.stringify(blocks);
    expect(text.indexOf('*S-3*')).toBeLessThan(text.indexOf('*S-4*'));
    expect(text.indexOf('*S-4*')).toBeLessThan(text.indexOf('*S-1*'));
    expect(text).toContain('next run 3: 2026-12-01 09:00 Africa/Lagos · 1 of 12 runs made, 1 skipped');
    expect(text).toContain('ended by <@U0APPROVER2>');
    expect(findElement(blocks, `${SERIES_ACTIONS.skipRun}:S-3:3`)?.element.value).toBe('S-3:3');
    expect(findElement(blocks, `${SERIES_ACTIONS.end}:S-3`)).toBeDefined();
    expect(findElement(blocks, `${SERIES_ACTIONS.end}:S-4`)).toBeUndefined();
  });

  it('stays within a message’s limits with many series, saying how many more', () => {
    const many = [
      ...Array.from({ length: 40 }, (_, i) => view(100 + i, 'live')),
      ...Array.from({ length: 30 }, (_, i) => view(200 + i, 'pending')),
      ...Array.from({ length: 30 }, (_, i) => view(300 + i, 'ended')),
    ];
    const blocks = schedulesBlocks(many);
    expect(checkBlockKitLimits('message', { text: 'Series', blocks })).toEqual([]);
    expect(JSON.stringify(blocks)).toContain(`and ${40 - LIVE_LISTED} more live series`);
  });

  it('says how to make one when there is none', () => {
    expect(JSON.stringify(schedulesBlocks([]))).toContain('choose *Repeat*');
  });
});

describe('App Home', () => {
  it('lists the next runs of live series under Coming up, each with its own Skip', () => {
    const runs: ComingRun[] = [
      { seriesId: 'S-3', k: 3, at: AT, pays: '1,200.00 USDC to 0x99ED…EdcF' },
      { seriesId: 'S-3', k: 4, at: AT + 86_400_000, pays: '1,200.00 USDC to 0x99ED…EdcF' },
    ];
    const home = homeView({ pending: [], recent: [], seriesRuns: runs });
    expect(checkBlockKitLimits('home', home)).toEqual([]);
    expect(JSON.stringify(home)).toContain('Coming up in series');
    expect(findElement(home.blocks, `${SERIES_ACTIONS.skipRun}:S-3:3`)?.element.value).toBe('S-3:3');
    expect(findElement(home.blocks, `${SERIES_ACTIONS.skipRun}:S-3:4`)?.element.value).toBe('S-3:4');
    // Someone outside VIEWERS sees no treasury figures.
    expect(JSON.stringify(homeView({ pending: [], recent: [], seriesRuns: runs, figuresHidden: true }))).not.toContain(
      'S-3',
    );
  });
});
