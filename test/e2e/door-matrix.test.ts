/**
 * The door matrix: every way in and every decision against every rule of domain/rules. Each
 * applicable cell drives its door for real (signed Slack requests, loopback HTTP, the CLI in
 * process) with a setup that breaks exactly that rule, and expects the rule's one code from
 * every door. The table (test/door-matrix/table.ts, table-decisions.ts) must name every rule and every door, and the
 * `app` façade may gain no member that acts for a person without a column.
 *
 * RAMPART_MUTATE_RULE=<rule id> replaces that rule's domain function with one that always allows
 * (see the vi.mock calls below): the rule's row must then fail from every door that asks it.
 * Where a store script enforces the rule, each cell also asserts that the domain function, on the
 * situation the row stages (door-matrix/agreement.ts), answers the door's code.
 */
import { describe, expect, it, vi } from 'vitest';
import type { FacadeDeps } from '../../src/app/facade-deps.js';
import { createApp } from '../../src/app/index.js';
import { RULE_IDS, RULES, type RuleId } from '../../src/domain/rules/index.js';
import { useApi } from '../api/support.js';
import { STAGED } from '../door-matrix/agreement.js';
import { DECIDE_DRIVERS } from '../door-matrix/cells-decide.js';
import { type Driver, SUBMIT_DRIVERS } from '../door-matrix/cells-submit.js';
import { DOOR_USES, NOT_DOORS } from '../door-matrix/facade.js';
import { type Cell, CODES, DECISION_DOORS, SUBMISSION_DOORS, SUBMISSIONS } from '../door-matrix/table.js';
import { DECISIONS } from '../door-matrix/table-decisions.js';
import type { World } from '../door-matrix/world.js';
import { BOOK_ENV, CAPS_ENV, MAIN_ENV, TIME_ENV } from '../door-matrix/world.js';
import { useHarness } from '../support/use-harness.js';

vi.mock('../../src/domain/policy.js', async (original) => {
  const m = await original<typeof import('../../src/domain/policy.js')>();
  if (process.env.RAMPART_MUTATE_RULE !== 'policy') return m;
  return { ...m, evaluatePolicy: () => ({ ok: true, required: 1, rule: 'mutant: always one approval' }) };
});
vi.mock('../../src/domain/step-up.js', async (original) => {
  const m = await original<typeof import('../../src/domain/step-up.js')>();
  return process.env.RAMPART_MUTATE_RULE === 'step_up' ? { ...m, needsStepUp: () => false } : m;
});
vi.mock('../../src/domain/velocity.js', async (original) => {
  const m = await original<typeof import('../../src/domain/velocity.js')>();
  return process.env.RAMPART_MUTATE_RULE === 'velocity' ? { ...m, firstExceeded: () => undefined } : m;
});
vi.mock('../../src/domain/api-key.js', async (original) => {
  const m = await original<typeof import('../../src/domain/api-key.js')>();
  if (process.env.RAMPART_MUTATE_RULE === 'key_limits') return { ...m, keyLimitRefusal: () => undefined };
  if (process.env.RAMPART_MUTATE_RULE === 'key_scopes') return { ...m, hasScope: () => true };
  return m;
});
vi.mock('../../src/domain/rules/decisions.js', async (original) => {
  const m = await original<typeof import('../../src/domain/rules/decisions.js')>();
  const allow = () => ({ ok: true });
  const rule = process.env.RAMPART_MUTATE_RULE;
  if (rule === 'self_approval') return { ...m, noSelfApproval: allow };
  if (rule === 'duplicate_vote') return { ...m, notTheSamePersonTwice: allow };
  if (rule === 'freeze') return { ...m, freezeRule: allow };
  if (rule === 'approval_state') return { ...m, approvalStateRule: allow };
  if (rule === 'step_up') return { ...m, stepUpProofRule: allow };
  if (rule === 'lookalike') return { ...m, lookalikeConfirmRule: allow };
  return m;
});
vi.mock('../../src/domain/rules/submissions.js', async (original) => {
  const m = await original<typeof import('../../src/domain/rules/submissions.js')>();
  const allow = () => ({ ok: true });
  const rule = process.env.RAMPART_MUTATE_RULE;
  if (rule === 'new_destination') return { ...m, newDestinationRule: allow };
  if (rule === 'batch_limits') return { ...m, batchRowsRule: allow };
  return m;
});
vi.mock('../../src/domain/rules/time.js', async (original) => {
  const m = await original<typeof import('../../src/domain/rules/time.js')>();
  const allow = () => ({ ok: true });
  const rule = process.env.RAMPART_MUTATE_RULE;
  if (rule === 'not_yet') return { ...m, notYetRule: allow };
  if (rule === 'waiting_cancel') return { ...m, waitingCancelRule: allow };
  return m;
});
vi.mock('../../src/domain/rules/series-actions.js', async (original) => {
  const m = await original<typeof import('../../src/domain/rules/series-actions.js')>();
  const rule = process.env.RAMPART_MUTATE_RULE;
  if (rule !== 'series_who' && rule !== 'series_state') return m;
  // The two functions hold both rows: only the mutated row's own codes are let through.
  const mine = (code: string) => (RULES[rule].codes as readonly string[]).includes(code);
  const allow = <T extends { ok: boolean; code?: string }>(v: T) => (!v.ok && mine(v.code ?? '') ? { ok: true } : v);
  return {
    ...m,
    seriesSkipRule: (...args: Parameters<typeof m.seriesSkipRule>) => allow(m.seriesSkipRule(...args)),
    seriesEndRule: (...args: Parameters<typeof m.seriesEndRule>) => allow(m.seriesEndRule(...args)),
  };
});
vi.mock('../../src/domain/rules/screening.js', async (original) => {
  const m = await original<typeof import('../../src/domain/rules/screening.js')>();
  return process.env.RAMPART_MUTATE_RULE === 'screening' ? { ...m, screeningRule: () => ({ ok: true }) } : m;
});
vi.mock('../../src/domain/address-book.js', async (original) => {
  const m = await original<typeof import('../../src/domain/address-book.js')>();
  const rule = process.env.RAMPART_MUTATE_RULE;
  if (rule === 'lookalike') return { ...m, lookalikeOf: () => undefined };
  if (rule !== 'address_book' && rule !== 'entry_cooling' && rule !== 'entry_removed') return m;
  // The functions serve several rules: only the mutated rule's own codes are let through.
  const mine = (code: string | undefined) =>
    code !== undefined && (RULES[rule].codes as readonly string[]).includes(code);
  return {
    ...m,
    destinationRule: (...args: Parameters<typeof m.destinationRule>) => {
      const verdict = m.destinationRule(...args);
      return !verdict.ok && mine(verdict.code) ? { ok: true } : verdict;
    },
    entryStartRule: (...args: Parameters<typeof m.entryStartRule>) => {
      const verdict = m.entryStartRule(...args);
      return 'ok' in verdict && !verdict.ok && mine(verdict.code) ? { ok: true } : verdict;
    },
  };
});
vi.mock('../../src/domain/open-caps.js', async (original) => {
  const m = await original<typeof import('../../src/domain/open-caps.js')>();
  return process.env.RAMPART_MUTATE_RULE === 'open_caps' ? { ...m, openCapOutcome: () => ({ ok: true }) } : m;
});

/** The façade's members, by path (one level of capability groups). */
function facadeMembers(): string[] {
  const refuse = new Proxy(
    {},
    {
      get: () => {
        throw new Error('the façade read its deps while being built');
      },
    },
  );
  const app = createApp(refuse as FacadeDeps) as unknown as Record<string, unknown>;
  return Object.entries(app).flatMap(([k, v]) =>
    typeof v === 'function' ? [k] : Object.keys(v as object).map((m) => `${k}.${m}`),
  );
}

describe('the table', () => {
  it('has a row for every rule of domain/rules and a cell for every door', () => {
    for (const rule of RULE_IDS) {
      expect(Object.keys(SUBMISSIONS[rule] ?? {}).sort(), `${rule}: submissions`).toEqual([...SUBMISSION_DOORS].sort());
      expect(Object.keys(DECISIONS[rule] ?? {}).sort(), `${rule}: decisions`).toEqual([...DECISION_DOORS].sort());
    }
    expect(Object.keys(SUBMISSIONS).sort()).toEqual([...RULE_IDS].sort());
    expect(Object.keys(DECISIONS).sort()).toEqual([...RULE_IDS].sort());
    for (const rule of RULE_IDS)
      for (const code of Object.values(CODES[rule])) expect(RULES[rule].codes as readonly string[]).toContain(code);
  });

  it('gives every app use case that acts for a person a column, and says why every other member is none', () => {
    const doors = new Set<string>([...SUBMISSION_DOORS, ...DECISION_DOORS]);
    for (const member of facadeMembers()) {
      const uses = DOOR_USES[member];
      if (uses) for (const door of uses) expect(doors.has(door), `${member} → ${door}`).toBe(true);
      else expect(NOT_DOORS[member], `the façade's ${member} has no column and no reason`).toBeDefined();
    }
  });

  it('has a driver for every cell that applies, and a cell that applies for every driver', () => {
    for (const [half, drivers] of [
      [SUBMISSIONS, SUBMIT_DRIVERS],
      [DECISIONS, DECIDE_DRIVERS],
    ] as const)
      for (const rule of RULE_IDS)
        for (const [door, cell] of Object.entries(half[rule]) as [string, Cell][])
          expect(cell === 'applies', `${rule} × ${door}`).toBe(
            (drivers[rule] as Record<string, Driver> | undefined)?.[door] !== undefined,
          );
  });
});

const main = useHarness('matrix', MAIN_ENV);
const caps = useHarness('matrix-caps', CAPS_ENV);
const time = useHarness('matrix-time', TIME_ENV);
const book = useHarness('matrix-book', BOOK_ENV);
const world: World = {
  main,
  caps,
  api: useApi(main),
  capsApi: useApi(caps),
  time,
  timeApi: useApi(time),
  book,
  bookApi: useApi(book),
};

const cellsOf = (
  half: Record<RuleId, Record<string, Cell>>,
  drivers: Partial<Record<RuleId, Partial<Record<string, Driver>>>>,
  which: 'submissions' | 'decisions',
) =>
  RULE_IDS.flatMap((rule) =>
    Object.entries(half[rule])
      .filter(([, cell]) => cell === 'applies')
      .map(([door]) => ({
        rule,
        door,
        code: CODES[rule][which],
        drive: (drivers[rule] as Record<string, Driver>)[door],
      })),
  );

describe.each([
  ['submissions', cellsOf(SUBMISSIONS, SUBMIT_DRIVERS, 'submissions')],
  ['decisions', cellsOf(DECISIONS, DECIDE_DRIVERS, 'decisions')],
] as const)('%s', (_half, cells) => {
  it.each(cells)('$rule from $door answers $code', async ({ rule, drive, code }) => {
    if (!drive) throw new Error('no driver');
    expect(await drive(world)).toBe(code);
    const staged = STAGED[rule];
    if (staged) expect(staged(), `${rule}'s domain function on the situation its row stages`).toBe(code);
  });
});
