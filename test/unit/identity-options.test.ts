import { describe, expect, it } from 'vitest';
import { identityOptionGroups } from '../../src/adapters/slack/blocks/identity-options.js';
import type { IdentityEntry } from '../../src/store/registry.js';

const NOW = 1_800_000_000_000;
const entry = (over: Partial<IdentityEntry>): IdentityEntry => ({
  id: 'idn_0123456789abcdef',
  name: '',
  type: 'bvn',
  bvnLast4: '4455',
  createdBy: 'U1',
  createdAt: NOW,
  ...over,
});

describe('identity picker options', () => {
  it('offers an identity the service confirmed just now, masked, within Slack’s 75 characters', () => {
    const e = entry({ source: 'service', isActive: true, checkedAt: NOW });
    const groups = identityOptionGroups({ known: [], live: { kind: 'found', entry: e, active: true } }, e.id, NOW);
    expect(groups).toEqual([
      {
        label: { type: 'plain_text', text: 'Checked with the service just now', emoji: true },
        options: [
          {
            text: { type: 'plain_text', text: 'Identity idn_0123…cdef · BVN ••••4455 · active', emoji: true },
            value: e.id,
            description: { type: 'plain_text', text: 'checked with the service just now', emoji: true },
          },
        ],
      },
    ]);
  });

  it('puts inactive identities from the registry in their own group, apart from usable ones', () => {
    const groups = identityOptionGroups(
      {
        known: [
          entry({ id: 'idn_a1', name: 'Ada', isActive: false, checkedAt: NOW - 600_000 }),
          entry({ id: 'idn_b2', name: 'Bola' }),
        ],
      },
      '',
      NOW,
    );
    expect(groups.map((g) => [g.label.text, g.options.map((o) => o.value)])).toEqual([
      ["Rampart's registry", ['idn_b2']],
      ['Inactive at the service: cannot be chosen', ['idn_a1']],
    ]);
    expect(groups[1]?.options[0]?.description?.text).toBe('checked with the service 10 min ago');
  });

  it('says "checked with the service" only of an identity the service confirmed, with when (DESIGN invariant 7)', () => {
    const groups = identityOptionGroups(
      {
        known: [
          entry({ id: 'idn_c3', name: 'Chidi', source: 'service', isActive: true, checkedAt: NOW - 600_000 }),
          entry({ id: 'idn_d4', name: 'Dayo', createdAt: NOW - 600_000 }),
        ],
      },
      '',
      NOW,
    );
    const descriptions = groups.flatMap((g) => g.options.map((o) => [o.value, o.description?.text]));
    expect(descriptions).toEqual([
      ['idn_c3', 'checked with the service 10 min ago'],
      ['idn_d4', 'idn_d4'],
    ]);
  });

  it('never echoes a long number that was typed', () => {
    const groups = identityOptionGroups({ known: [] }, '0123456789', NOW);
    expect(JSON.stringify(groups)).not.toContain('0123456789');
    expect(groups[0]?.label.text).toBe('Nothing matches that number');
  });
});
