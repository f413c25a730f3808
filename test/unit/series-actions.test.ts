/**
 * Who may skip a run or end a series, and the one sentence each outcome is told in (the loser of
 * a race included). Pure.
 */
import { describe, expect, it } from 'vitest';
import { type SeriesActionFacts, seriesEndRule, seriesSkipRule } from '../../src/domain/rules/series-actions.js';
import { skipMarkOf } from '../../src/domain/series.js';
import { seriesActionSentence } from '../../src/domain/series-answers.js';

const live: SeriesActionFacts = { state: 'live', requester: 'U0REQ', isApprover: true, runs: 12, marks: [] };
const me = { user: 'U0ME' };

describe('seriesSkipRule', () => {
  it('lets any approver skip a run of a live series not yet created nor skipped', () => {
    expect(seriesSkipRule(me, live, 3)).toEqual({ ok: true });
  });

  it('refuses, in order: no series, not an approver, not live, no such run, created, skipped', () => {
    expect(seriesSkipRule(me, { ...live, state: undefined }, 3)).toMatchObject({ code: 'missing' });
    expect(seriesSkipRule({ user: 'U0REQ' }, { ...live, isApprover: false }, 3)).toMatchObject({
      code: 'not_an_approver',
    });
    expect(seriesSkipRule(me, { ...live, state: 'ended' }, 3)).toMatchObject({ code: 'already_ended' });
    expect(seriesSkipRule(me, { ...live, state: 'pending' }, 3)).toMatchObject({ code: 'not_live' });
    expect(seriesSkipRule(me, live, 13)).toMatchObject({ code: 'no_such_run' });
    expect(seriesSkipRule(me, live, 0)).toMatchObject({ code: 'no_such_run' });
    const marks = [{ k: 3, status: 'created' as const, id: 'R-41' }, skipMarkOf(4, { by: 'U0X' })];
    expect(seriesSkipRule(me, { ...live, marks }, 3)).toEqual({ ok: false, code: 'run_created', runId: 'R-41' });
    expect(seriesSkipRule(me, { ...live, marks }, 4)).toEqual({
      ok: false,
      code: 'already_skipped',
      skip: { k: 4, status: 'skipped', why: 'skipped by U0X', by: 'U0X' },
    });
  });
});

describe('seriesEndRule', () => {
  it('lets an approver or the requester end a live series, and no one else', () => {
    expect(seriesEndRule(me, live)).toEqual({ ok: true });
    expect(seriesEndRule({ user: 'U0REQ' }, { ...live, isApprover: false })).toEqual({ ok: true });
    expect(seriesEndRule(me, { ...live, isApprover: false })).toMatchObject({ code: 'not_an_approver' });
    expect(seriesEndRule(me, { ...live, state: 'ended' })).toMatchObject({ code: 'already_ended' });
  });
});

describe('seriesActionSentence', () => {
  const refused = { kind: 'refused' as const, seriesId: 'S-12', action: 'skip' as const };
  it('tells the loser of a race which happened', () => {
    expect(seriesActionSentence({ ...refused, code: 'run_created', k: 3, runId: 'R-41' })).toBe(
      'Run 3 was already created as R-41 and is on its way; cancel it on its card.',
    );
    expect(
      seriesActionSentence(
        { ...refused, code: 'already_skipped', k: 3, skip: skipMarkOf(3, { by: 'U0X', source: 'from the CLI' }) },
        (u) => `<@${u}>`,
      ),
    ).toBe('Run 3 was already skipped by <@U0X>.');
    const overLimit = { k: 3, status: 'skipped' as const, why: 'over_limit' };
    expect(seriesActionSentence({ ...refused, code: 'already_skipped', k: 3, skip: overLimit })).toBe(
      'Run 3 was already skipped: over_limit.',
    );
    expect(seriesActionSentence({ ...refused, action: 'end', code: 'already_ended' })).toBe(
      'S-12 already ended; no more runs will be created.',
    );
  });

  it('says what an end did to the run it found', () => {
    const ended = { kind: 'ended' as const, seriesId: 'S-12' };
    expect(seriesActionSentence({ ...ended, run: { k: 4, id: 'R-44', was: 'cancelled' } })).toBe(
      'S-12 ended; run 4 (R-44) cancelled, nothing sent.',
    );
    expect(seriesActionSentence({ ...ended, run: { k: 4, id: 'R-44', was: 'started' } })).toBe(
      'S-12 ended; run 4 (R-44) had already started and goes on: see its card.',
    );
    expect(seriesActionSentence({ ...ended, run: undefined })).toBe('S-12 ended; no more runs will be created.');
  });
});
