/**
 * Every button any block builder produces, walked over realistic and worst-case fixtures (long
 * ids, amounts and wallet names; batches paused, running and finished with unknown rows; passkey,
 * freeze and step-up cards; App Home; the request form): its text and its accessibility label fit
 * Slack's 75 characters by being short — never cut with "…" — and a button that acts on one
 * payment, batch or passkey says which in its label (a screen reader hears only "Approve"
 * otherwise, once per card in the channel). Pure.
 */
import { describe, expect, it } from 'vitest';
import { finishedBlocks } from '../../../src/adapters/slack/blocks/batch-again.js';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { shareButton } from '../../../src/adapters/slack/blocks/common.js';
import { unfreezeCardBlocks } from '../../../src/adapters/slack/blocks/freeze.js';
import { homeView } from '../../../src/adapters/slack/blocks/home.js';
import { passkeyCardBlocks, passkeyCommandBlocks } from '../../../src/adapters/slack/blocks/passkey.js';
import { requestModal } from '../../../src/adapters/slack/blocks/request-modal.js';
import { notPaidOfferBlocks, stepUpOfferBlocks } from '../../../src/adapters/slack/blocks/step-up.js';
import type { ExecutionCounts } from '../../../src/domain/approval.js';
import type { ExecutionRecord, RequestRecord } from '../../../src/domain/request.js';
import { buildBatchFacts, buildRecord } from '../../support/factories.js';

interface Button {
  action_id?: string;
  text: { text: string };
  accessibility_label?: string;
  value?: string;
}

/** Every `type: 'button'` anywhere in a payload (actions, accessories, inputs). */
function buttonsIn(payload: unknown): Button[] {
  const found: Button[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if ((v as { type?: unknown }).type === 'button') found.push(v as Button);
      Object.values(v).forEach(walk);
    }
  };
  walk(payload);
  return found;
}

const LONG_ID = 'R-1234567';
const long = (r: RequestRecord): RequestRecord => ({
  ...r,
  sealed: {
    ...r.sealed,
    id: LONG_ID,
    display: {
      ...r.sealed.display,
      walletAlias: 'operations-treasury-main-account',
      amountText: '29,500,000,000.123456',
      beneficiaryLabel: 'Adaeze Obi-Nwachukwu Trading and Logistics Limited',
    },
  },
  executions: r.executions.map((e) => ({ ...e, id: `${LONG_ID}.1`, approvalId: LONG_ID })),
});

const facts = buildBatchFacts([50_000], {
  fileName: 'november-vendor-run-final-final-v2.csv',
  rows: 20,
  total: '1000000',
  availableNow: '14000000',
  availableAfter: '13000000',
  preview: ['row 2 · 0x99ED…EdcF · 50,000.00 cNGN'],
});

function batch(approvalState: RequestRecord['approvalState'], states: ExecutionRecord['state'][]): RequestRecord {
  const base = buildRecord('approved');
  const id = 'B-1000003';
  const counts: ExecutionCounts = { queued: 0, executing: 0, succeeded: 0, failed: 0, unknown: 0, cancelled: 0 };
  for (const s of states) counts[s] += 1;
  return {
    ...base,
    sealed: {
      ...base.sealed,
      id,
      call: { kind: 'transfer', body: { wallet_id: 'wal_ops', amount: 1_000_000, receiver: '', asset: 'bsc:cngn' } },
      display: {
        walletAlias: 'operations-treasury-main-account',
        amountText: '1,000,000.00',
        assetCode: 'cNGN',
        chain: 'bsc',
        batch: facts,
      },
    },
    approvalState,
    shape: 'batch',
    executionCount: states.length,
    counts,
    executions: states.map((state, i) => ({
      id: `${id}.${i + 1}`,
      approvalId: id,
      state,
      sealHash: 'h',
      tries: 1,
      ...(state === 'unknown' && i === 6
        ? { proposal: { id: 'P-1a2b3c4d', by: 'U0APPROVER1', at: 1, why: 'no debit on the wallet' } }
        : {}),
    })),
  };
}

const repeat = (n: number, v: ExecutionRecord['state']): ExecutionRecord['state'][] =>
  Array.from({ length: n }, () => v);
const APPROVERS = ['U0APPROVER1', 'U0APPROVER2'];
const passkey = {
  id: 'cred_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  user: 'U0AYO',
  publicKey: 'pk',
  aaguid: 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd',
  browser: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605.1.15',
  createdAt: 1,
  status: 'pending' as const,
  usableFrom: 0,
};

const cards: [string, unknown][] = [
  ...(['pending', 'approved', 'unknown', 'succeeded', 'failed', 'denied'] as const).flatMap((state) =>
    (['transfer', 'offramp', 'beneficiary'] as const).map((kind): [string, unknown] => [
      `${kind} card ${state}`,
      requestCardBlocks(long(buildRecord(state, kind)), { approvers: APPROVERS }),
    ]),
  ),
  [
    'unknown single with a not-paid proposal',
    requestCardBlocks(
      long({
        ...buildRecord('unknown'),
        executions: [
          {
            id: 'R-1001.1',
            approvalId: 'R-1001',
            state: 'unknown',
            sealHash: 'h',
            tries: 1,
            proposal: { id: 'P-1', by: 'U0APPROVER1', at: 1, why: 'no debit' },
          },
        ],
      }),
      { approvers: APPROVERS },
    ),
  ],
  ['pending batch card', requestCardBlocks(batch('pending', repeat(20, 'queued')))],
  [
    'paused batch card',
    requestCardBlocks(batch('paused', [...repeat(10, 'succeeded'), ...repeat(3, 'failed'), ...repeat(7, 'queued')])),
  ],
  ['running batch card', requestCardBlocks(batch('running', [...repeat(4, 'succeeded'), ...repeat(16, 'queued')]))],
  [
    'finished batch card with unknown rows',
    requestCardBlocks(batch('done', [...repeat(6, 'succeeded'), ...repeat(8, 'unknown'), ...repeat(6, 'failed')]), {
      approvers: APPROVERS,
    }),
  ],
  ['batch summary with Request again', finishedBlocks('summary', 'B-1000003', 1234)],
  ['step-up link', stepUpOfferBlocks(LONG_ID, 'https://rampart.example/step-up#t')],
  ['step-up resume link', stepUpOfferBlocks('B-1000003', 'https://rampart.example/step-up#t', 'resume')],
  ['not-paid passkey link', notPaidOfferBlocks('B-1000003.17', 'https://rampart.example/step-up#t')],
  ['new passkey card', passkeyCardBlocks(passkey)],
  ['/passkey list', passkeyCommandBlocks('https://rampart.example/enrol#t', [{ ...passkey, counter: 0 }], 2)],
  [
    'unfreeze card',
    unfreezeCardBlocks({
      proposal: { id: 'u1', by: 'U0APPROVER1', at: 0, votes: {} },
      freeze: { by: 'U0APPROVER2', at: 0, reason: 'incident 42' },
      held: [{ id: 'R-1001', line: '25.00 USDC (Base) ops → 0x99ED…EdcF' }],
      required: 2,
    }),
  ],
  ['share', shareButton('/balance', 'ops')],
  [
    'App Home',
    homeView({
      pending: [buildRecord('pending')],
      recent: [buildRecord('succeeded', 'offramp')],
      approver: { user: 'U0APPROVER1', links: new Map() },
    }),
  ],
  [
    'request form',
    requestModal(
      { kind: 'offramp', channel: 'C1', prefill: { wallet: 'ops' } },
      [{ alias: 'ops', id: 'wal_ops_7f3a' }],
      { wallet: 'ops', asset: 'base:usdc' },
    ),
  ],
];

/** Buttons that act on one payment, batch or passkey: their label must say which. */
const ACTS_ON_ONE =
  /^(request_approve|request_deny|outcome_record|outcome_confirm|batch_|step_up_open|passkey_(approve|remove))/;

describe('every button', () => {
  it('is found in every fixture that draws one', () => {
    for (const [name, payload] of cards.filter(
      ([n]) => !/card (approved|denied|succeeded|failed)|beneficiary card pending/.test(n),
    ))
      expect(buttonsIn(payload).length, name).toBeGreaterThan(0);
  });

  it.each(cards)('%s: text and accessibility label fit 75 characters without being cut', (_name, payload) => {
    for (const b of buttonsIn(payload)) {
      expect(b.text.text.length, b.text.text).toBeLessThanOrEqual(75);
      // plain() cuts a longer text to exactly its limit ending in "…" ("Record outcome…" is a word of its own).
      expect(b.text.text.length === 75 && b.text.text.endsWith('…'), `cut: ${b.text.text}`).toBe(false);
      if (b.accessibility_label === undefined) continue;
      expect(b.accessibility_label.length, b.accessibility_label).toBeLessThanOrEqual(75);
      expect(b.accessibility_label, 'a cut label').not.toMatch(/…$/);
    }
  });

  it.each(cards)('%s: a button acting on one thing names it in its label', (_name, payload) => {
    for (const b of buttonsIn(payload).filter((x) => ACTS_ON_ONE.test(x.action_id ?? ''))) {
      expect(b.accessibility_label, b.action_id).toBeDefined();
      expect(b.accessibility_label ?? '', b.action_id).toMatch(/[RB]-\d+|passkey \S+/);
    }
  });

  it('reads as the walk asked: "Approve R-1002: 29,500.25 USDT, ops to treasury"', () => {
    const r = buildRecord('pending');
    const card = requestCardBlocks({
      ...r,
      sealed: {
        ...r.sealed,
        id: 'R-1002',
        display: { ...r.sealed.display, amountText: '29,500.25', assetCode: 'USDT', ownWallet: 'treasury' },
      },
    });
    const labels = buttonsIn(card).map((b) => b.accessibility_label);
    expect(labels).toContain('Approve R-1002: 29,500.25 USDT, ops to treasury');
    expect(labels).toContain('Deny R-1002: 29,500.25 USDT, ops to treasury');
  });

  it('a finished batch names each unknown row as its card does', () => {
    const card = requestCardBlocks(batch('done', [...repeat(6, 'succeeded'), ...repeat(14, 'unknown')]));
    expect(buttonsIn(card).map((b) => b.accessibility_label)).toContain('Record the outcome of B-1000003 row 8');
  });
});
