import { randomUUID } from 'node:crypto';
import type { OutcomeFacts } from '../../src/app/outcome-facts.js';
import type { NewRequest } from '../../src/app/post-request.js';
import { SINGLE_STATES, sealHash, singleCounts, type ViewState } from '../../src/domain/approval.js';
import { assetInfo } from '../../src/domain/assets.js';
import type { BatchFacts } from '../../src/domain/batch-approval.js';
/**
 * Fixture builders (Outline's `build*` factories): one realistic sealed request or record per
 * kind, with overrides, instead of repeated literals in every test.
 */
import {
  callHash,
  type ExecutionRecord,
  type RequestRecord,
  type SealedRequest,
  type ServiceCall,
} from '../../src/domain/request.js';
import type { SealedSchedule } from '../../src/domain/schedule.js';
import type { Wallet } from '../../src/service/schemas.js';
import type { BeneficiaryEntry } from '../../src/store/registry.js';

export const RECEIVER_EVM = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const CREATED = Date.UTC(2026, 10, 21, 9, 30);

/** A service wallet as GET /wallets/{id} returns it: active, transfers and offramps on. */
export const buildWallet = (id: string, overrides: Partial<Wallet> = {}): Wallet => ({
  id,
  reference: `ref-${id}`,
  address: { evm: RECEIVER_EVM, svm: '7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r' },
  is_active: true,
  transfer: true,
  swap: false,
  offramp: true,
  ...overrides,
});

/** A transfers file's facts as the batch check keeps them: rows 2, 3… pay `amounts`, from 100 available. */
export function buildBatchFacts(amounts: number[], over: Partial<BatchFacts> = {}): BatchFacts {
  const total = amounts.reduce((a, b) => a + b, 0);
  const largest = Math.max(...amounts);
  return {
    kind: 'transfers',
    fileName: 'payouts.csv',
    rows: amounts.length,
    total: String(total),
    largest: { row: amounts.lastIndexOf(largest) + 2, amount: String(largest) },
    availableNow: '100',
    availableAfter: String(100 - total),
    fileFingerprint: 'f'.repeat(64),
    preview: [],
    ...over,
  };
}

/** A USDC transfer on Base from the ops wallet, for `amount`. */
export const transferOf = (amount: number): ServiceCall => ({
  kind: 'transfer',
  body: { wallet_id: 'wal_ops_7f3a', amount, receiver: RECEIVER_EVM, asset: 'base:usdc' },
});

/**
 * What a submission seals for a series of `call`: one approval, U0REQUESTER's, from ops on Base,
 * run at the instants `runs` (a minute cadence, as tests allow) or on a sealed schedule; `over`
 * replaces any field.
 */
export const sealedSeriesInput = (
  id: string,
  call: ServiceCall,
  runs: number[] | SealedSchedule,
  over: Partial<NewRequest> = {},
): NewRequest => ({
  id,
  shape: 'series',
  call,
  display: { chain: 'base', walletAlias: 'ops' },
  requester: 'U0REQUESTER',
  reason: 'retainer',
  origin: undefined,
  required: 1,
  rule: '1 approval',
  stepUp: false,
  submission: `V${randomUUID()}`,
  schedule: Array.isArray(runs)
    ? { every: { unit: 'minutes', n: 1 }, at: undefined, zone: 'UTC', ends: { after: runs.length }, runs }
    : runs,
  ...over,
});

export const CALLS: Record<ServiceCall['kind'], ServiceCall> = {
  transfer: {
    kind: 'transfer',
    body: { wallet_id: 'wal_ops_7f3a', amount: 1250.5, receiver: RECEIVER_EVM, asset: 'base:usdc' },
  },
  offramp: {
    kind: 'offramp',
    body: { wallet_id: 'wal_ops_7f3a', amount: 500, beneficiary_id: 'ben_5f0c2a', asset: 'base:usdc' },
  },
  beneficiary: {
    kind: 'beneficiary',
    body: {
      currency: 'NGN',
      identity_id: 'idn_5f0c2a91',
      details: { bank_code: '058', account_number: '0123456789' },
    },
  },
  'address-book': {
    kind: 'address-book',
    body: { entries: [{ name: 'Acme payroll wallet', chain: 'base', address: RECEIVER_EVM, wallets: '*' }] },
  },
  'register-beneficiary': {
    kind: 'register-beneficiary',
    body: {
      beneficiaries: [
        {
          beneficiary_id: 'ben_7a1c',
          identity_id: 'idn_5f0c2a91',
          label: 'Ada Obi · GTBank',
          bank_name: 'GTBank',
          account_last4: '6789',
        },
      ],
    },
  },
};

const DISPLAY: Record<ServiceCall['kind'], SealedRequest['display']> = {
  transfer: {
    walletAlias: 'ops',
    walletAddress: RECEIVER_EVM,
    amountText: '1,250.50',
    assetCode: 'USDC',
    chain: 'base',
    availableBefore: '10,000.00',
    availableAfter: '8,749.50',
    newReceiver: true,
  },
  offramp: {
    walletAlias: 'ops',
    amountText: '500.00',
    assetCode: 'USDC',
    chain: 'base',
    beneficiaryLabel: 'Ada Obi · GTBank ••••6789',
    holderName: 'ADA OBI',
    holderSource: 'lookup',
    holderCheckedAt: Date.UTC(2026, 10, 14, 15, 2),
    indicativeRate: 1532.75,
  },
  beneficiary: {
    identityLabel: 'Ada Obi (BVN ••••4455)',
    beneficiaryLabel: 'GTBank ••••6789',
    holderName: 'ADA OBI',
    holderSource: 'lookup',
    bankName: 'GTBank',
    accountMasked: '••••6789',
  },
  'register-beneficiary': { identitiesChecked: [{ id: 'idn_5f0c2a91', bvnLast4: '4455', active: true }] },
  'address-book': {},
};

export function buildSealedRequest(
  kind: ServiceCall['kind'] = 'transfer',
  overrides: Partial<SealedRequest> = {},
): SealedRequest {
  const call = overrides.call ?? CALLS[kind];
  return {
    id: 'R-1001',
    call,
    display: DISPLAY[call.kind],
    requester: 'U0REQUESTER',
    reason: 'vendor invoice 118',
    origin: 'C0GENERAL',
    createdAt: CREATED,
    expiresAt: CREATED + 86_400_000,
    requiredApprovals: 1,
    rule: '1 approval',
    hash: callHash(call),
    ...overrides,
  };
}

/** A record in `state`, with the decision and outcome fields that state would carry. */
export function buildRecord(
  state: ViewState = 'pending',
  kind: ServiceCall['kind'] = 'transfer',
  overrides: Partial<RequestRecord> = {},
): RequestRecord {
  const sealed = buildSealedRequest(kind);
  const decided = state !== 'pending' && state !== 'expired';
  const approved = ['approved', 'executing', 'succeeded', 'failed', 'unknown'].includes(state);
  const [approvalState, executionState] = SINGLE_STATES[state];
  const record: RequestRecord = {
    sealed,
    shape: 'single',
    state,
    votes: approved ? [{ user: 'U0APPROVER1', at: CREATED + 60_000 }] : [],
    approvalState,
    executionCount: 1,
    counts: singleCounts(executionState),
    executions: [
      { id: `${sealed.id}.1`, approvalId: sealed.id, state: executionState, sealHash: sealHash(sealed.call), tries: 0 },
    ],
  };
  if (decided) {
    record.decidedBy = state === 'cancelled' ? 'U0REQUESTER' : 'U0APPROVER1';
    record.decidedAt = CREATED + 60_000;
  }
  if (state === 'denied') record.denyReason = 'not in this month’s budget';
  if (state === 'succeeded') {
    record.outcome =
      kind === 'transfer'
        ? {
            hash: '0x5b1e8f0c2a91d3e4b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4',
            link: 'https://basescan.org/tx/0x5b1e8f0c2a91d3e4b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4',
          }
        : kind === 'offramp'
          ? { reference: 'OFR-20261121-0042' }
          : { id: 'ben_5f0c2a' };
  }
  if (state === 'failed')
    record.outcome = { message: 'The wallet service refused the request: “insufficient balance”.' };
  if (state === 'unknown') record.outcome = { message: 'The wallet service did not answer in time.' };
  return { ...record, ...overrides };
}

/**
 * A request submitted just now, for store and queue tests whose expiries and clocks run from
 * the present (factories instead of hand-built literals).
 */
export function buildFreshRequest(id: string, overrides: Partial<SealedRequest> = {}): SealedRequest {
  const now = Date.now();
  return buildSealedRequest('transfer', { id, createdAt: now, expiresAt: now + 60_000, ...overrides });
}

/**
 * A one-approval request of `call` as submission seals it, created now (or at `over.createdAt`)
 * and open a day, with no origin channel: the record store, queue and CLI tests set up.
 */
export function sealedOf(id: string, call: ServiceCall, over: Partial<SealedRequest> = {}): SealedRequest {
  const createdAt = over.createdAt ?? Date.now();
  return {
    id,
    call,
    display: { walletAlias: 'ops', chain: 'base' },
    requester: 'U0REQUESTER',
    reason: 'test',
    createdAt,
    expiresAt: createdAt + 86_400_000,
    requiredApprovals: 1,
    rule: '1 approval',
    hash: callHash(call),
    ...over,
  };
}

/** Creates `sealedOf(call, over)` under the store's next id, as a submission would; returns the id. */
export async function createSealed(
  store: { nextId(): Promise<string>; create(s: SealedRequest): Promise<unknown> },
  call: ServiceCall,
  over: Partial<SealedRequest> = {},
): Promise<string> {
  const id = await store.nextId();
  await store.create(sealedOf(id, call, over));
  return id;
}

/** A registered GTBank beneficiary of identity idn_1, as the registry stores it once approved. */
export const buildBeneficiary = (
  id: string,
  label: string,
  over: Partial<BeneficiaryEntry> = {},
): BeneficiaryEntry => ({
  id,
  label,
  identityId: 'idn_1',
  identityName: 'Ada Obi',
  bankName: 'GTBank',
  accountMasked: '••••6789',
  holderName: 'ADA OBI',
  createdBy: 'U1',
  approvedBy: 'U2',
  createdAt: Date.now(),
  requestId: 'R-1',
  ...over,
});

/** R-1001 from the walk: @riley sends 25.00 USDC on Base from ops (the factory's hash and clock). */
export function rileyTransfer(): SealedRequest {
  const base = buildSealedRequest('transfer');
  return {
    ...base,
    requester: 'U0RILEY',
    call: {
      kind: 'transfer',
      body: { wallet_id: 'wal_ops_7f3a', amount: 25, receiver: RECEIVER_EVM, asset: 'base:usdc' },
    },
    display: { ...base.display, amountText: '25.00' },
  };
}

/** When the outcome-unknown execution of `buildOutcomeFacts` started. */
export const OUTCOME_START = Date.UTC(2026, 10, 21, 14, 2);

/** What the Record outcome form shows about R-1001.1, outcome unknown, with a balance on each side. */
export function buildOutcomeFacts(over: Partial<OutcomeFacts> = {}): OutcomeFacts {
  const record = buildRecord('unknown');
  const START = OUTCOME_START;
  return {
    executionId: 'R-1001.1',
    record,
    execution: record.executions[0] as ExecutionRecord,
    call: record.sealed.call,
    asset: assetInfo('base:usdc'),
    chainName: 'Base',
    walletId: 'wal_ops_7f3a',
    amount: 77.77,
    startedAt: START,
    unknownAt: START + 30_000,
    before: { at: START - 4 * 60_000, available: { 'base:usdc': 1000 } },
    atUnknown: { at: START + 31_000, available: { 'base:usdc': 1000 } },
    now: { at: START + 600_000, available: { 'base:usdc': 1000 } },
    others: [],
    confirmNeedsPasskey: false,
    ...over,
  };
}
